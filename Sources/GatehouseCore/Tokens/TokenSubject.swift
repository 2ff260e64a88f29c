import Foundation

/// The user facts that go into an ID token.
public struct TokenSubject: Sendable, Equatable {
    public var sub: String
    public var email: String?
    public var emailVerified: Bool
    public var name: String?

    public init(sub: String, email: String?, emailVerified: Bool, name: String?) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }

    public init(_ user: UserRecord) {
        self.init(sub: user.id, email: user.email, emailVerified: user.emailVerified, name: user.name)
    }
}
