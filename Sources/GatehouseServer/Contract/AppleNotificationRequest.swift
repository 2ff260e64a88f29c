/// `POST /auth/apple/notifications`: Apple's signed notification.
public struct AppleNotificationRequest: ContractRequest {
    public static let fields: [ContractField] = [.required("payload", maxLength: 16_384)]
    /// The compact JWS Apple signed.
    public let payload: String
}
