/// The client's answer to a ``SRPChallenge`` (`RespondToAuthChallenge` with `PASSWORD_VERIFIER`).
public struct SRPClaim: Sendable, Equatable {
    /// `PASSWORD_CLAIM_SECRET_BLOCK`: the challenge's `SECRET_BLOCK`, echoed.
    public var secretBlock: String
    /// `TIMESTAMP`, as the client formatted it (the signature covers these exact characters).
    public var timestamp: String
    /// `PASSWORD_CLAIM_SIGNATURE`, base64.
    public var signature: String

    /// - Parameters:
    ///   - secretBlock: The echoed secret block.
    ///   - timestamp: The client's timestamp.
    ///   - signature: The client's signature.
    public init(secretBlock: String, timestamp: String, signature: String) {
        self.secretBlock = secretBlock
        self.timestamp = timestamp
        self.signature = signature
    }
}
