import Foundation

/// Where the custom-claims hook's request goes (the server's HTTP implementation signs it like a
/// Standard Webhook and posts it to `GATEHOUSE_CLAIMS_HOOK_URL`). The core builds the body and reads
/// the answer (``ClaimsHookGate``); the hook only carries bytes.
public protocol ClaimsHook: Sendable {
    /// Delivers one request and returns the answer's body.
    /// - Parameters:
    ///   - body: The JSON request (``ClaimsHookRequest/body``).
    ///   - timeout: How long to wait for the whole answer.
    /// - Returns: The body of a successful (2xx) answer.
    /// - Throws: Anything else: a timeout, a refused connection, a non-2xx status.
    func send(_ body: [UInt8], timeout: Duration) async throws -> [UInt8]
}
