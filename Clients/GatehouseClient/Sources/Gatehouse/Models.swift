import Foundation

/// Where a code was sent, masked (`a***@e***.com`, `+14…23`).
///
/// Returned by ``GatehouseClient/signUp(email:password:fullName:)``, ``GatehouseClient/resendCode(email:)``,
/// ``GatehouseClient/forgotPassword(email:)``, ``GatehouseClient/sendPhoneCode(to:)`` and
/// ``GatehouseClient/addPhone(_:)``. The server answers the same way for addresses and numbers it does not know, so
/// show it as "if this address has an account, a code is on its way to …", never as proof that an account exists.
public struct CodeDelivery: Codable, Sendable, Equatable {
    /// How the code travels: `EMAIL`, or `SMS` for the phone codes.
    public var medium: String
    /// The masked address or number the code went to, safe to show on screen.
    public var destination: String
}

/// The answer to a sign-up (the same shape whether or not the address was already registered).
///
/// The account cannot sign in until the emailed code is confirmed with
/// ``GatehouseClient/confirmSignUp(email:code:)``.
public struct SignUpResult: Codable, Sendable, Equatable {
    /// The new user's id (`sub`). For an address that was already registered this is a random id the
    /// server keeps nowhere, so do not store it as the user's identity; read ``Profile/sub`` after sign-in.
    public var userSub: String
    /// Whether the account may already sign in; `false` after a normal sign-up (a code was mailed).
    public var userConfirmed: Bool
    /// Where the confirmation code went.
    public var codeDelivery: CodeDelivery
}

/// The app's profile of the signed-in user (`GET /me`).
public struct Profile: Codable, Sendable, Equatable {
    /// A way to sign in that belongs to the account.
    public struct LinkedIdentity: Codable, Sendable, Equatable {
        /// `password`, `google` or `apple` (a server may add others, such as one for phone sign-in).
        public var provider: String
        /// When the identity was first linked to the account.
        public var linkedAt: Date
        /// Apple only: whether the address Apple gave is its Hide My Email relay; `nil` when unknown (other
        /// providers, older servers and accounts).
        public var isPrivateEmail: Bool?
        /// Apple only: whether Apple forwards mail sent to that relay address. `false` once the user turned
        /// forwarding off in their Apple ID settings: the server sends no mail there until it is back on, so an
        /// app may ask the user for another address. `nil` when unknown (taken as on).
        public var emailForwarding: Bool?
    }

    /// The user's stable id, the `sub` claim of their tokens; key your own data on this, not on the email.
    public var sub: String
    /// The account's email address; `nil` when the account has none (a social sign-in that shared no address).
    public var email: String?
    /// Whether the address was proven: a confirmed code, or a provider that vouched for it.
    public var emailVerified: Bool
    /// The display name; `nil` when none is known. Change it with ``GatehouseClient/updateProfile(fullName:)``.
    public var fullName: String?
    /// The account's phone number in E.164 (`+14155550123`); `nil` when it has none (and from servers older than
    /// phone sign-in). Add one with ``GatehouseClient/addPhone(_:)`` and ``GatehouseClient/verifyPhone(_:code:)``.
    public var phone: String?
    /// Whether ``phone`` was proven with a texted code; `false` without a number (and from older servers).
    public var phoneVerified: Bool
    /// Every way the user can sign in (email and password, Google, Apple).
    public var identities: [LinkedIdentity]
    /// When the app profile was created (just in time, on the account's first `GET /me`).
    public var createdAt: Date
    /// When the profile last changed.
    public var updatedAt: Date

    private enum CodingKeys: String, CodingKey {
        case sub, email, emailVerified, fullName, phone, phoneVerified, identities, createdAt, updatedAt
    }

    /// Decodes `GET /me`'s shape; `phone` and `phone_verified` may be absent (servers before phone sign-in).
    ///
    /// - Parameter decoder: A decoder converting from snake case, as the client's is.
    /// - Throws: `DecodingError` when a required field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sub = try container.decode(String.self, forKey: .sub)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decode(Bool.self, forKey: .emailVerified)
        fullName = try container.decodeIfPresent(String.self, forKey: .fullName)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        phoneVerified = try container.decodeIfPresent(Bool.self, forKey: .phoneVerified) ?? false
        identities = try container.decode([LinkedIdentity].self, forKey: .identities)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    }
}
