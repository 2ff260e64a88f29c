import Foundation

@testable import Gatehouse

/// The repository's software WebAuthn authenticator (`Tests/GatehouseServerTests/Scripts/passkeys_authenticator.py`,
/// python-fido2's CBOR and COSE with `cryptography`'s keys) in one long-lived `python3` process, so the credential it
/// creates keeps its private key for the sign-ins after it. Each request is one JSON line on its stdin
/// (`{"op": "create" | "get", "options", "origin"}`), each answer one JSON line on its stdout: the
/// `RegistrationResponseJSON` or `AuthenticationResponseJSON` a browser's `toJSON()` would make.
final class SoftwareAuthenticator: @unchecked Sendable {
    /// The folder holding the script, from this file's path.
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/GatehouseServerTests/Scripts")

    static let program = """
        import json, sys
        sys.path.insert(0, sys.argv[1])
        from passkeys_authenticator import Authenticator
        authenticator = Authenticator()
        for line in sys.stdin:
            request = json.loads(line)
            try:
                answer = getattr(authenticator, request["op"])(request["options"], request["origin"])
            except Exception as error:
                answer = {"error": repr(error)}
            print(json.dumps(answer), flush=True)
        """

    /// Why the authenticator failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether `python3` with `cryptography` and `fido2` (and the script) is here. Without them the passkey
    /// end-to-end suite is skipped with a note, except in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`), where it runs and fails.
    static let isAvailable: Bool = {
        if ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1" { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys; sys.path.insert(0, sys.argv[1]); import passkeys_authenticator", scripts.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        var ok = false
        do {
            try process.run()
            process.waitUntilExit()
            ok = process.terminationStatus == 0
        } catch {
            ok = false
        }
        if !ok {
            FileHandle.standardError.write(
                Data(
                    ("note: GatehouseClient passkey end-to-end suite skipped: python3 cannot import passkeys_authenticator from "
                        + "\(scripts.path) (it needs the cryptography and fido2 modules: pip install cryptography fido2)\n").utf8
                )
            )
        }
        return ok
    }()

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    /// The origin the client data names (one of the server's `GATEHOUSE_PASSKEY_ORIGINS`).
    let origin: String

    /// Starts the authenticator.
    ///
    /// - Parameter origin: The web origin the ceremonies claim, such as `http://gatehouse.test`.
    /// - Throws: When `python3` cannot start.
    init(origin: String) throws {
        self.origin = origin
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.program, Self.scripts.path]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    deinit { stop() }

    /// Ends the process.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// `navigator.credentials.create()` with the server's creation options.
    ///
    /// - Parameter options: ``PasskeyRegistrationOptions/json``.
    /// - Returns: The `RegistrationResponseJSON`.
    /// - Throws: ``Failure`` when the authenticator refuses or dies.
    func create(_ options: Data) throws -> [String: Any] { try ask("create", options) }

    /// `navigator.credentials.get()` with the server's request options (the newest matching credential answers).
    ///
    /// - Parameter options: ``PasskeySignInOptions/json``.
    /// - Returns: The `AuthenticationResponseJSON`.
    /// - Throws: ``Failure`` when the authenticator refuses or dies.
    func get(_ options: Data) throws -> [String: Any] { try ask("get", options) }

    private func ask(_ op: String, _ options: Data) throws -> [String: Any] {
        let request: [String: Any] = ["op": op, "options": try JSONSerialization.jsonObject(with: options), "origin": origin]
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request) + Data("\n".utf8))
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw Failure(description: "the authenticator exited before answering \(op)") }
            buffer += chunk
        }
        let end = buffer.firstIndex(of: UInt8(ascii: "\n"))!
        let line = buffer[buffer.startIndex..<end]
        buffer = Data(buffer[buffer.index(after: end)...])
        guard let answer = try JSONSerialization.jsonObject(with: line) as? [String: Any] else { throw Failure(description: "not an object") }
        if let error = answer["error"] { throw Failure(description: "the authenticator refused \(op): \(error)") }
        return answer
    }
}

extension PasskeyRegistration {
    /// The raw fields of a `RegistrationResponseJSON`, as an authenticator returned them before any encoding.
    ///
    /// - Parameter json: The response JSON.
    /// - Throws: When a field is missing or not base64url.
    init(responseJSON json: [String: Any]) throws {
        let response = json["response"] as? [String: Any] ?? [:]
        guard let id = (json["rawId"] as? String).flatMap(Base64URL.decode),
            let clientData = (response["clientDataJSON"] as? String).flatMap(Base64URL.decode),
            let attestation = (response["attestationObject"] as? String).flatMap(Base64URL.decode)
        else { throw SoftwareAuthenticator.Failure(description: "not a RegistrationResponseJSON: \(json)") }
        self.init(
            credentialID: id,
            clientDataJSON: clientData,
            attestationObject: attestation,
            transports: response["transports"] as? [String] ?? [],
            authenticatorAttachment: json["authenticatorAttachment"] as? String
        )
    }
}

extension PasskeyAssertion {
    /// The raw fields of an `AuthenticationResponseJSON`, as an authenticator returned them before any encoding.
    ///
    /// - Parameter json: The response JSON.
    /// - Throws: When a field is missing or not base64url.
    init(responseJSON json: [String: Any]) throws {
        let response = json["response"] as? [String: Any] ?? [:]
        guard let id = (json["rawId"] as? String).flatMap(Base64URL.decode),
            let clientData = (response["clientDataJSON"] as? String).flatMap(Base64URL.decode),
            let authenticatorData = (response["authenticatorData"] as? String).flatMap(Base64URL.decode),
            let signature = (response["signature"] as? String).flatMap(Base64URL.decode)
        else { throw SoftwareAuthenticator.Failure(description: "not an AuthenticationResponseJSON: \(json)") }
        self.init(
            credentialID: id,
            clientDataJSON: clientData,
            authenticatorData: authenticatorData,
            signature: signature,
            userHandle: (response["userHandle"] as? String).flatMap(Base64URL.decode),
            authenticatorAttachment: json["authenticatorAttachment"] as? String
        )
    }
}

/// `object` as canonical JSON (sorted keys), to compare two JSON objects field for field.
func canonicalJSON(_ object: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}
