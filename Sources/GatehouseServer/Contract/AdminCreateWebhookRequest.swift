/// `POST /admin/webhooks`: an endpoint an operator registers. Members the endpoint does not know are refused.
public struct AdminCreateWebhookRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("url", maxLength: 2000), .required("events", maxLength: 600),
    ]

    /// The receiver's URL.
    public let url: String
    /// The event names, comma-separated as `gatehouse webhooks add --events` takes them (`*` for all).
    public let events: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url, events
    }

    /// Decodes the body, refusing members the endpoint does not know.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown member or a wrong type.
    public init(from decoder: any Decoder) throws {
        try KnownMembers.check(decoder, CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        events = try container.decode(String.self, forKey: .events)
    }
}
