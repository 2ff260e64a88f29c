/// The contract's error body: `{"error": {"code": "...", "message": "..."}}`.
public struct ErrorResponse: ContractResponse, Equatable {
    /// The error's code and safe message.
    public struct Detail: Codable, Sendable, Equatable {
        public let code: String
        public let message: String
    }

    public let error: Detail

    /// - Parameters:
    ///   - code: The stable wire code.
    ///   - message: Text safe to show to a client.
    public init(code: String, message: String) {
        error = Detail(code: code, message: message)
    }
}
