import Foundation

@testable import Gatehouse

/// An authenticator app as the server sees it: every code is for a later step than the last one it accepted (a code
/// is accepted once), and within one step of now (the server's window), waiting for the clock when it must.
struct AuthenticatorApp {
    let key: [UInt8]
    private var lastStep: Int64?

    /// An app holding `secret`.
    ///
    /// - Parameter secret: The base32 secret from ``GatehouseClient/enrolAuthenticatorApp()``.
    /// - Throws: When the secret is not base32.
    init(secret: String) throws {
        guard let key = TOTPGenerator.base32Decode(secret), !key.isEmpty else { throw GatehouseError.invalidResponse("secret \(secret)") }
        self.key = key
    }

    /// The next code the server will accept, after waiting (up to a step) when the last one used the next step.
    mutating func nextCode() async throws -> String {
        var step = TOTPGenerator.step(at: Date())
        if let lastStep, step <= lastStep { step = lastStep + 1 }
        while step > TOTPGenerator.step(at: Date()) + 1 { try await Task.sleep(nanoseconds: 250_000_000) }
        lastStep = step
        return TOTPGenerator.code(key: key, step: step)
    }
}
