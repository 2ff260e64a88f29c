/// The one-flag answers: `{"confirmed": true}`, `{"reset": true}`, `{"changed": true}`.
public struct OutcomeResponse: ContractResponse, Equatable {
    /// The flag's name.
    public let outcome: String

    /// `POST /auth/confirm`.
    public static let confirmed = OutcomeResponse(outcome: "confirmed")
    /// `POST /auth/password/reset`.
    public static let reset = OutcomeResponse(outcome: "reset")
    /// `POST /auth/password/change`.
    public static let changed = OutcomeResponse(outcome: "changed")

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Writes `{"<outcome>": true}`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(true, forKey: Key(stringValue: outcome))
    }
}
