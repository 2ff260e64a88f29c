import Foundation
import GatehouseInfrastructure

/// What the custom-claims hook is told about the tokens about to be issued.
public struct ClaimsHookRequest: Sendable, Equatable {
    /// Why tokens are being issued.
    public enum Kind: String, Sendable {
        /// A sign-in of any kind (password, SRP, passkey, Google, Apple, phone, the hosted UI's code exchange).
        case signIn = "sign_in"
        /// A refresh-token exchange.
        case refresh
    }

    /// The user the tokens are for.
    public var subject: TokenSubject
    /// Sign-in or refresh.
    public var kind: Kind
    /// The app client the tokens are for.
    public var clientID: String
    /// The session's method (`password`, `google`, `apple`, `phone`, `passkey`, `password+otp`, …).
    public var method: String

    /// Creates a request.
    /// - Parameters:
    ///   - subject: The user.
    ///   - kind: Sign-in or refresh.
    ///   - clientID: The app client.
    ///   - method: The session's method.
    public init(subject: TokenSubject, kind: Kind, clientID: String, method: String) {
        self.subject = subject
        self.kind = kind
        self.clientID = clientID
        self.method = method
    }

    /// `{"user": {"sub", "email", "email_verified", "name", "phone_number"}, "token_use", "client_id", "method"}`;
    /// unknown facts are `null`.
    public var body: [UInt8] {
        let user: JSONValue = .object([
            "sub": .string(subject.sub),
            "email": subject.email.map(JSONValue.string) ?? .null,
            "email_verified": .bool(subject.emailVerified),
            "name": subject.name.map(JSONValue.string) ?? .null,
            "phone_number": subject.phone.map(JSONValue.string) ?? .null,
        ])
        let request: JSONValue = .object([
            "user": user, "token_use": .string(kind.rawValue), "client_id": .string(clientID), "method": .string(method),
        ])
        return request.serialized()
    }
}
