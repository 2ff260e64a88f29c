import GatehouseAPI
import GatehouseCore

/// `GET /me/mfa`: whether an authenticator app guards the account, since when, and the recovery codes left.
extension Components.Schemas.SecondFactorStatus {
    /// - Parameter status: The second factor's state.
    init(_ status: SecondFactor.Status) {
        self.init(totpEnabled: status.enabled, totpEnabledAt: status.enabledAt, recoveryCodesLeft: status.recoveryCodesLeft)
    }
}
