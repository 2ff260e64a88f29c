import GatehouseCore

extension CognitoError {
    /// Cognito's answer could not be had: unreachable, throttled beyond retries, or a 5xx.
    var isUnavailable: Bool {
        ["Transport", "BadResponse", "BadEndpoint", "InternalErrorException", "InternalFailure", "ServiceUnavailable"].contains(code)
            || status >= 500
    }

    /// The errors every operation shares; `nil` for those whose meaning depends on the operation.
    /// Cognito's message goes to the log (through `cause`), never to the client.
    var commonMapping: GatehouseError? {
        switch code {
        case "TooManyRequestsException", "LimitExceededException", "TooManyFailedAttemptsException":
            return .tooManyRequests(retryAfter: code == "TooManyRequestsException" ? 5 : 60)
        case "InvalidPasswordException":
            return GatehouseError(.invalidPassword, "The password does not meet the password policy.", cause: "Cognito \(code)")
        case "ResourceNotFoundException", "InvalidUserPoolConfigurationException", "UnrecognizedClientException", "AccessDeniedException",
            "InvalidLambdaResponseException", "UnexpectedLambdaException", "UserLambdaValidationException", "MissingAuthenticationToken",
            "InvalidSignatureException", "ExpiredTokenException", "IncompleteSignature":
            return .internalError(cause: "Cognito is misconfigured or refused our credentials: \(code) (run `gatehouse doctor`)")
        default:
            return isUnavailable ? .upstreamUnavailable(cause: "Cognito \(code) (HTTP \(status))") : nil
        }
    }

    /// The common mapping, else `fallback`, else an opaque internal error.
    func gatehouseError(_ fallback: GatehouseError? = nil) -> GatehouseError {
        // The message stays out of the cause: Cognito (and moto) put usernames and even tokens in it.
        commonMapping ?? fallback ?? .internalError(cause: "Cognito \(code) (HTTP \(status))")
    }
}
