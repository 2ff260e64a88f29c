/// One member of a JSON request body as `openapi.yaml` declares it. The lists are generated from
/// the document (`RequestSchemas`, by `scripts/generate-openapi.sh`), never written by hand; the body
/// reader enforces them before the body is decoded into its generated type.
///
/// The reader enforces a string member's presence, type, emptiness (`minLength` 1 or more, or
/// required) and `maxLength` (Unicode scalars). A larger `minLength` and the `pattern` stay the use
/// case's to enforce, as its refusal carries its own code (the password policy's `invalid_password`
/// is configurable) and message; they are kept here so the tests can hold the server to them.
public struct ContractField: Sendable, Equatable {
    /// What the reader checks of the member.
    public enum Kind: Sendable, Equatable {
        /// A string (or a string or `null`): checked by the reader.
        case string
        /// Any other type (a boolean, an array, an object): checked by the decoder alone.
        case decoded
    }

    /// The member's name on the wire.
    public let name: String
    /// What the reader checks.
    public let kind: Kind
    /// Whether the document lists the member as required.
    public let required: Bool
    /// Whether the document's type admits `null`, which then differs from absent where the use case says so (PATCH).
    public let nullable: Bool
    /// The document's `minLength` (Unicode scalars).
    public let minLength: Int?
    /// The document's `maxLength` (Unicode scalars); `nil`: the body cap alone limits it.
    public let maxLength: Int?
    /// The document's `pattern` (ECMA-262), enforced by the use case.
    public let pattern: String?

    /// A member as the document declares it.
    /// - Parameters:
    ///   - name: The member's name on the wire.
    ///   - kind: What the reader checks.
    ///   - required: Whether the member is required.
    ///   - nullable: Whether `null` is a value of its own.
    ///   - minLength: The document's `minLength`.
    ///   - maxLength: The document's `maxLength`.
    ///   - pattern: The document's `pattern`.
    public init(
        name: String,
        kind: Kind,
        required: Bool = false,
        nullable: Bool = false,
        minLength: Int? = nil,
        maxLength: Int? = nil,
        pattern: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.required = required
        self.nullable = nullable
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
    }

    /// Whether an empty string is refused: a required member, or one whose `minLength` is at least 1.
    public var refusesEmpty: Bool { required || (minLength ?? 0) >= 1 }
}
