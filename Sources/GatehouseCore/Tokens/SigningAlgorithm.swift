/// The JWS algorithm of the embedded pool's signing keys (`GATEHOUSE_TOKEN_ALG`).
///
/// RS256 (RSA-2048, PKCS #1 v1.5) is the default: it is what Cognito signs with and what every
/// Cognito-minded verifier accepts. ES256 (ECDSA P-256 over SHA-256) signs several times faster and
/// makes shorter tokens, for deployments whose verifiers all accept it (docs/configuration.md lists
/// the ones that do not). Each stored key records its own algorithm, and a token is verified only
/// under the algorithm of the key its `kid` names.
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 over an RSA-2048 key.
    case rs256 = "RS256"
    /// ECDSA with SHA-256 over a P-256 key; the signature is `r || s`, 64 bytes (RFC 7518 §3.4).
    case es256 = "ES256"
}
