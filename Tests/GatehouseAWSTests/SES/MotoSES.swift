import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

@testable import GatehouseAWS

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// moto's SES behind `Tests/ses/moto_ses.py`, started once per test process on a loopback port. Locally,
/// without moto the SES suite is skipped with a note; in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) it fails.
final class MotoSES: Sendable {
    let endpoint: String
    private let process: Process
    private let input: Pipe

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ses/moto_ses.py")

    /// The shared emulator, or `nil` when moto is not installed here (and that is allowed).
    static let shared: MotoSES? = {
        guard pythonCanImport("moto.ses, moto.sesv2, werkzeug") else {
            if TestDatabase.requireAllSuites {
                Issue.record("moto is required in CI for the SES suite (pip install 'moto[server]')")
            } else {
                FileHandle.standardError.write(
                    Data("note: SES (moto) suite skipped: python3 module 'moto' is not installed (pip install 'moto[server]')\n".utf8)
                )
            }
            return nil
        }
        do {
            return try MotoSES()
        } catch {
            Issue.record("could not start the moto SES emulator: \(error)")
            return nil
        }
    }()

    static var isAvailable: Bool { shared != nil || TestDatabase.requireAllSuites }

    private init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard case .object(let info)? = try? StrictJSONParser().parse(Array(line)), let endpoint = info["endpoint"]?.stringValue else {
            process.terminate()
            throw GatehouseError.internalError(cause: "moto_ses.py printed no endpoint: \(String(decoding: line, as: UTF8.self))")
        }
        self.endpoint = endpoint
        self.process = process
        self.input = input
    }

    /// Settings pointing at the emulator.
    func settings(configurationSet: String? = nil) -> SESSettings {
        SESSettings(
            region: "us-east-1",
            endpoint: endpoint,
            configurationSet: configurationSet,
            credentials: .init(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        )
    }

    /// Every message moto accepted: source, destinations and the raw data.
    func sent() async throws -> [(source: String, destinations: [String], raw: String)] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: endpoint + "/_ses/sent")!)
        let list = try StrictJSONParser().parse(Array(data)).arrayValue ?? []
        return list.compactMap(\.objectValue).map { entry in
            (
                entry["source"]?.stringValue ?? "", (entry["destinations"]?.arrayValue ?? []).compactMap(\.stringValue),
                entry["raw_data"]?.stringValue ?? ""
            )
        }
    }

    static func pythonCanImport(_ modules: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(modules)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
