/// `PATCH /me`: `full_name` absent (unchanged), `null` (cleared) or a string (set).
public struct ProfileUpdateRequest: ContractRequest {
    /// The document's members (generated): this body is decoded by hand only because the generated type
    /// cannot tell an absent member from `null`.
    public static var fields: [ContractField] { RequestSchemas.updateProfile }
    /// `.none`: leave as is; `.some(nil)`: clear; `.some(name)`: set.
    public let fullName: String??

    enum CodingKeys: String, CodingKey, CaseIterable {
        case fullName = "full_name"
    }

    /// Decodes the three states of `full_name`.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when `full_name` is neither absent, `null` nor a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if !container.contains(.fullName) {
            fullName = .none
        } else if try container.decodeNil(forKey: .fullName) {
            fullName = .some(nil)
        } else {
            fullName = .some(try container.decode(String.self, forKey: .fullName))
        }
    }
}
