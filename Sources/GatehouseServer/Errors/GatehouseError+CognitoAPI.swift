import GatehouseCore

extension GatehouseError {
    /// The core's errors as Cognito's user-pool API answers them (the one place this mapping lives).
    var cognitoAPIError: CognitoAPIError {
        switch code {
        case .invalidCredentials: .incorrectCredentials
        case .invalidToken, .unauthorized: CognitoAPIError("NotAuthorizedException", "Invalid Access Token")
        case .invalidGrant: CognitoAPIError("NotAuthorizedException", "Invalid Refresh Token")
        // One answer for a forged, expired, used or another user's session, as Cognito words it.
        case .invalidSession: CognitoAPIError("NotAuthorizedException", "Invalid session for the user.")
        case .reauthenticationRequired: CognitoAPIError("NotAuthorizedException", "Sign in again to do this.")
        case .userNotConfirmed: CognitoAPIError("UserNotConfirmedException", "User is not confirmed.")
        case .codeMismatch: CognitoAPIError("CodeMismatchException", "Invalid verification code provided, please try again.")
        case .codeExpired: CognitoAPIError("ExpiredCodeException", "Invalid code provided, please request a code again.")
        case .invalidPassword: CognitoAPIError("InvalidPasswordException", message)
        case .invalidRequest: .invalidParameter(message)
        case .tooManyRequests: CognitoAPIError("TooManyRequestsException", "Too many requests. Try again later.", status: .tooManyRequests)
        case .forbidden, .providerDisabled, .mfaRequired, .userDisabled: CognitoAPIError("NotAuthorizedException", message)
        case .notFound: CognitoAPIError("UserNotFoundException", "User does not exist.")
        case .conflict: CognitoAPIError("AliasExistsException", message)
        default: CognitoAPIError("InternalErrorException", "Internal server error.", status: .internalServerError)
        }
    }
}
