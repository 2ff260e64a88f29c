/// The `json-write` section's token answer as an `Encodable` value, the shape `JSONEncoder` would be
/// given if it replaced `JSONObjectWriter`.
struct BenchTokenAnswer: Encodable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let refreshToken: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
    }
}
