/// `POST /auth/refresh` and `POST /auth/signout`: a refresh token.
public struct RefreshTokenRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("refresh_token", maxLength: ContractLimits.refreshToken)]
    public let refreshToken: String

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
    }
}
