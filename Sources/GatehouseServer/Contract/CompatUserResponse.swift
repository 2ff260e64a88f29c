import GatehouseCore

/// The seed 003 (Hero365) client's `User`: `GET /api/v1/users/me`, and the `user` of every `/api/v1`
/// sign-in. Every member is written, unknown ones as `null` (the seed decodes them as optionals).
public struct CompatUserResponse: ContractResponse, Equatable {
    /// The user's subject (the tokens' `sub`).
    public let id: String
    public let email: String?
    /// The verified phone number (E.164), or `null`.
    public let phone: String?
    public let fullName: String?
    /// `true`: a user who can sign in is active (a deleted account cannot).
    public let isActive: Bool
    /// `false` unless an operator made the user a superuser (`gatehouse users superuser`).
    public let isSuperuser: Bool
    /// Always `null`: there is no Supabase behind Gatehouse.
    public let supabaseID: String?

    enum CodingKeys: String, CodingKey {
        case id, email, phone
        case fullName = "full_name"
        case isActive = "is_active"
        case isSuperuser = "is_superuser"
        case supabaseID = "supabase_id"
    }

    /// The seed's view of a profile.
    /// - Parameter view: The caller's profile.
    public init(_ view: ProfileView) {
        id = view.profile.sub
        email = view.profile.email
        phone = view.profile.phone
        fullName = view.profile.fullName
        isActive = true
        isSuperuser = view.profile.isSuperuser
        supabaseID = nil
    }

    /// Writes every member, `null` for the unknown ones (never omitted).
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(email, forKey: .email)
        try container.encode(phone, forKey: .phone)
        try container.encode(fullName, forKey: .fullName)
        try container.encode(isActive, forKey: .isActive)
        try container.encode(isSuperuser, forKey: .isSuperuser)
        try container.encode(supabaseID, forKey: .supabaseID)
    }
}
