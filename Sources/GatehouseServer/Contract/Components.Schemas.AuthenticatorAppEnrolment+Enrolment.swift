import GatehouseAPI
import GatehouseCore

/// `POST /me/mfa/totp`: the new secret and its `otpauth://` URI, shown once.
extension Components.Schemas.AuthenticatorAppEnrolment {
    /// - Parameter enrolment: The pending enrolment.
    init(_ enrolment: SecondFactor.Enrolment) {
        self.init(secret: enrolment.secret, otpauthUri: enrolment.uri)
    }
}
