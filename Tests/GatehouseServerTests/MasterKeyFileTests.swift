import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Logging
import Testing

@testable import GatehouseServer

/// `<data dir>/master.key` is created once and never replaced (issue 11, item 12).
@Suite("Configuration: the master key file")
struct MasterKeyFileTests {
    static func freshDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gh-key-\(UUID().uuidString)")
    }

    static func configuration(_ directory: URL) -> GatehouseConfiguration {
        var c = GatehouseConfiguration()
        c.dataDirectory = directory.path
        return c
    }

    static let quiet = Logger(label: "master-key-test") { _ in SwiftLogNoOpLogHandler() }

    /// Puts `contents` at `<directory>/master.key` and expects start-up to stop, naming the file,
    /// with the file left exactly as it was.
    static func expectRefused(_ contents: [UInt8], mentioning detail: String) throws {
        let directory = freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("master.key")
        try Data(contents).write(to: file)
        do {
            _ = try Bootstrap.masterKey(configuration(directory), logger: quiet)
            Issue.record("a master.key holding \(contents.prefix(8)) was accepted")
        } catch let error as ConfigurationError {
            #expect(error.message.contains(file.path) && error.message.contains(detail), "\(error.message)")
            #expect(error.message.contains("never replaces"))
        }
        #expect(try Array(Data(contentsOf: file)) == contents, "the file is unchanged")
    }

    @Test func aFileThatIsNotUTF8StopsStartUpAndIsKept() throws {
        try Self.expectRefused([0xFF, 0xFE, 0x00, 0x80] + Array(repeating: 0x41, count: 40), mentioning: "UTF-8")
    }

    @Test func aFileWithTheWrongKeyStopsStartUpAndIsKept() throws {
        try Self.expectRefused(Array("not base64!\n".utf8), mentioning: "32-byte")
        try Self.expectRefused(Array((Data(repeating: 7, count: 16).base64EncodedString() + "\n").utf8), mentioning: "32-byte")
        try Self.expectRefused([], mentioning: "32-byte")
    }

    @Test func aDirectoryNamedMasterKeyIsAClearError() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("master.key")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        #expect {
            _ = try Bootstrap.masterKey(Self.configuration(directory), logger: Self.quiet)
        } throws: { error in
            let message = (error as? ConfigurationError)?.message ?? ""
            return message.contains(file.path) && message.contains("not a regular file")
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func anUnreadableFileIsAClearError() throws {
        guard getuid() != 0 else { return }  // root reads it anyway
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("master.key")
        let contents = Data((Data(repeating: 5, count: 32).base64EncodedString() + "\n").utf8)
        try contents.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        #expect(throws: ConfigurationError.self) { _ = try Bootstrap.masterKey(Self.configuration(directory), logger: Self.quiet) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try Data(contentsOf: file) == contents)
    }

    /// Eight starts at once on one fresh data directory (ten times over) end with one key that all of
    /// them use and the file holds.
    @Test func concurrentFirstStartsAgreeOnOneKey() throws {
        for _ in 0..<10 {
            let directory = Self.freshDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let results = LockedBox<(keys: [[UInt8]], errors: [String])>(([], []))
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    let key = try Bootstrap.masterKey(Self.configuration(directory), logger: Self.quiet)
                    results.withLock { $0.keys.append(key) }
                } catch {
                    results.withLock { $0.errors.append("\(error)") }
                }
            }
            let (keys, errors) = results.withLock { $0 }
            #expect(errors.isEmpty, "\(errors)")
            #expect(keys.count == 8 && Set(keys).count == 1, "\(Set(keys).count) different keys")
            let file = directory.appendingPathComponent("master.key")
            let stored = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(Data(base64Encoded: stored).map(Array.init) == keys.first)
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "master.key" }
            #expect(leftovers.isEmpty, "temporary files are removed: \(leftovers)")
            // And a later start reads the same key.
            #expect(try Bootstrap.masterKey(Self.configuration(directory), logger: Self.quiet) == keys.first)
        }
    }
}
