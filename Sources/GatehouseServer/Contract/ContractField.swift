/// One string member of a request body as the contract declares it: its wire name, whether it is
/// required, and its length limit (Unicode scalars). The request types declare their fields once,
/// here; the body reader enforces them and the contract tests compare them with `openapi.yaml`.
public struct ContractField: Sendable, Equatable {
    /// How a member may appear.
    public enum Presence: Sendable, Equatable {
        /// Present, a non-empty string.
        case required
        /// Absent, `null` or a non-empty string (absent and `null` mean the same).
        case optional
        /// Absent, `null` or a string, and absent differs from `null` (PATCH semantics).
        case nullable
        /// Absent, `null` or a string that may be empty, an empty one meaning absent: what some clients
        /// send for a missing name (the seed 003 app sends Apple's empty name as `""`).
        case optionalMayBeEmpty
        /// Documented and accepted, never read (the contract's hints, such as a social sign-in's
        /// `email`: the address comes from the verified token).
        case hint
    }

    /// The member's name on the wire.
    public let name: String
    /// How it may appear.
    public let presence: Presence
    /// The longest value accepted, in Unicode scalars (`nil`: the body cap alone limits it).
    public let maxLength: Int?

    /// A required string member.
    /// - Parameters:
    ///   - name: The member's name on the wire.
    ///   - maxLength: The longest value accepted, in Unicode scalars.
    /// - Returns: The declaration.
    public static func required(_ name: String, maxLength: Int) -> ContractField {
        ContractField(name: name, presence: .required, maxLength: maxLength)
    }

    /// A member the contract accepts as a hint and the server never reads.
    /// - Parameter name: The member's name on the wire.
    /// - Returns: The declaration.
    public static func hint(_ name: String) -> ContractField {
        ContractField(name: name, presence: .hint, maxLength: nil)
    }

    /// An optional string member that may also be empty (empty means absent).
    /// - Parameters:
    ///   - name: The member's name on the wire.
    ///   - maxLength: The longest value accepted, in Unicode scalars.
    /// - Returns: The declaration.
    public static func optionalMayBeEmpty(_ name: String, maxLength: Int) -> ContractField {
        ContractField(name: name, presence: .optionalMayBeEmpty, maxLength: maxLength)
    }

    /// An optional string member.
    /// - Parameters:
    ///   - name: The member's name on the wire.
    ///   - maxLength: The longest value accepted, in Unicode scalars.
    /// - Returns: The declaration.
    public static func optional(_ name: String, maxLength: Int) -> ContractField {
        ContractField(name: name, presence: .optional, maxLength: maxLength)
    }
}
