import HTTPTypes

extension HTTPField.Name {
    /// `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`: which operation a request is.
    static let amzTarget = Self("X-Amz-Target")!
    /// The exception's name on an error answer, which the AWS SDKs read before the body.
    static let amznErrorType = Self("X-Amzn-ErrorType")!
    /// A request id on every answer, as AWS sends one.
    static let amznRequestID = Self("x-amzn-RequestId")!
}
