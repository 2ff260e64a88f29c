/// `PATCH /me`: `full_name` absent (unchanged), `null` (cleared) or a string (set).
public struct ProfileUpdateRequest: ContractRequest {
    public static let fields: [ContractField] = [ContractField(name: "full_name", presence: .nullable, maxLength: nil)]
    /// `.none`: leave as is; `.some(nil)`: clear; `.some(name)`: set.
    public let fullName: String??

    enum CodingKeys: String, CodingKey {
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
