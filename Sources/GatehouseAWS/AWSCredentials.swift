import Foundation

extension SigV4Signer.Credentials {
    /// From the standard AWS environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`); `nil` when they are not set.
    public static func fromEnvironment(_ env: [String: String]) -> SigV4Signer.Credentials? {
        guard let key = env["AWS_ACCESS_KEY_ID"], !key.isEmpty, let secret = env["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else { return nil }
        let token = env["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return .init(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
    }
}
