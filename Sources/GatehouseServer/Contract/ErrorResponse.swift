/// The contract's error body: `{"error": {"code": "...", "message": "..."}}`, and for `mfa_required`
/// the challenge to redeem: `{"error": {"code": "mfa_required", "message": "...", "mfa_token": "..."}}`.
public struct ErrorResponse: ContractResponse, Equatable {
    /// The error's code and safe message.
    public struct Detail: Codable, Sendable, Equatable {
        public let code: String
        public let message: String
        /// The second-step challenge of `mfa_required`; absent otherwise.
        public let mfaToken: String?

        enum CodingKeys: String, CodingKey {
            case code, message
            case mfaToken = "mfa_token"
        }
    }

    public let error: Detail

    /// - Parameters:
    ///   - code: The stable wire code.
    ///   - message: Text safe to show to a client.
    ///   - mfaToken: The challenge of an `mfa_required` refusal.
    public init(code: String, message: String, mfaToken: String? = nil) {
        error = Detail(code: code, message: message, mfaToken: mfaToken)
    }
}
