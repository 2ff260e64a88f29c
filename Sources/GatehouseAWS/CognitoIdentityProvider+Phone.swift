import GatehouseCore
import Logging

/// Phone sign-in is not offered on Cognito. Cognito's own SMS sign-in is a custom-auth or
/// passwordless (`USER_AUTH` with `SMS_OTP`) flow that Cognito texts itself, from its own SNS role and
/// with its own codes, limits and account model (a phone-only user needs a pool that allows phone
/// numbers as usernames); it cannot be mapped faithfully onto this contract's codes, quotas and
/// find-or-create rule, so every call answers 403 `provider_disabled` and says so.
extension CognitoIdentityProvider {
    static var phoneDisabled: GatehouseError {
        GatehouseError(
            .providerDisabled,
            "Phone sign-in is not available when Gatehouse runs on Amazon Cognito; use the embedded user pool for phone numbers."
        )
    }

    /// Always 403 `provider_disabled`.
    public func checkPhoneAvailable() throws {
        throw Self.phoneDisabled
    }

    /// Always 403 `provider_disabled`.
    public func sendSignInCode(to number: PhoneNumber, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        throw Self.phoneDisabled
    }

    /// Always 403 `provider_disabled`.
    public func verifySignInCode(number: PhoneNumber, code: String, client: ClientInfo, logger: Logger) async throws -> ProviderSignInOutcome {
        throw Self.phoneDisabled
    }

    /// Always 403 `provider_disabled`.
    public func sendLinkCode(principal: Principal, number: PhoneNumber, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        throw Self.phoneDisabled
    }

    /// Always 403 `provider_disabled`.
    public func verifyLinkCode(
        principal: Principal,
        number: PhoneNumber,
        code: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        throw Self.phoneDisabled
    }
}
