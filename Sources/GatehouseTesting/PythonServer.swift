import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// A Python helper server started for the tests (moto's Cognito or SES): it prints one JSON object on
/// its first line and serves until its standard input closes, so it dies with the test process.
public struct PythonServer: Sendable {
    /// The running interpreter.
    public let process: ChildProcess
    /// The write end of its standard input, kept open while the server should live.
    public let input: FileHandle
    /// The object the script printed.
    package let info: [String: JSONValue]

    /// Starts a script kept in this repository.
    /// - Parameter path: Its path from the repository's root (`Tests/ses/moto_ses.py`).
    /// - Throws: As ``init(script:)``.
    public init(repositoryScript path: String) throws {
        // This file is Sources/GatehouseTesting/PythonServer.swift: three levels below the root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try self.init(script: root.appendingPathComponent(path))
    }

    /// Starts `script` and reads its first line.
    /// - Parameter script: The Python file.
    /// - Throws: `internal_error` with what was printed when the first line is not a JSON object.
    public init(script: URL) throws {
        let input = try ChildProcess.pipe()
        let output = try ChildProcess.pipe()
        let process = try ChildProcess(["python3", script.path], stdin: .descriptor(input.read), stdout: .descriptor(output.write))
        close(input.read)
        close(output.write)
        let reader = FileHandle(fileDescriptor: output.read, closeOnDealloc: true)
        var line = Data()
        while true {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard case .object(let info)? = try? StrictJSONParser().parse(Array(line)) else {
            process.terminate()
            throw GatehouseError.internalError(cause: "\(script.lastPathComponent) printed: \(String(decoding: line, as: UTF8.self))")
        }
        self.process = process
        self.input = FileHandle(fileDescriptor: input.write, closeOnDealloc: true)
        self.info = info
    }

    /// A string the script printed.
    /// - Parameter key: Its name.
    /// - Returns: The value.
    /// - Throws: `internal_error` when it is missing (the server is stopped).
    public func string(_ key: String) throws -> String {
        guard let value = info[key]?.stringValue else {
            process.terminate()
            throw GatehouseError.internalError(cause: "the helper server printed no \(key)")
        }
        return value
    }
}
