/// `PATCH /admin/users/{sub}`: `name` absent (unchanged), `null` (cleared) or a string; the flags absent
/// or booleans. Members the endpoint does not know are refused.
public struct AdminUpdateUserRequest: ContractRequest {
    /// The document's members (generated): this body is decoded by hand only because the generated type
    /// cannot tell an absent member from `null`.
    public static var fields: [ContractField] { RequestSchemas.updateAdminUser }

    /// `.none`: leave as is; `.some(nil)`: clear; `.some(name)`: set.
    public let name: String??
    /// The new `email_verified`.
    public let emailVerified: Bool?
    /// The new disabled state.
    public let disabled: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, disabled
        case emailVerified = "email_verified"
    }

    /// Decodes the three states of `name` and the flags, refusing members the endpoint does not know.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown member or a wrong type.
    public init(from decoder: any Decoder) throws {
        try KnownMembers.check(decoder, CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if !container.contains(.name) {
            name = .none
        } else if try container.decodeNil(forKey: .name) {
            name = .some(nil)
        } else {
            name = .some(try container.decode(String.self, forKey: .name))
        }
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled)
    }
}
