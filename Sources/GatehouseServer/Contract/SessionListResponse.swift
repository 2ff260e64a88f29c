import GatehouseCore

/// `GET /me/sessions`: the caller's live sessions, most recently used first.
public struct SessionListResponse: ContractResponse, Equatable {
    /// One session.
    public struct Session: Encodable, Sendable, Equatable {
        public let id: String
        public let createdAt: String
        public let lastRefreshedAt: String?
        public let device: String
        public let clientAddress: String?
        public let method: String
        public let amr: [String]
        public let current: Bool

        enum CodingKeys: String, CodingKey {
            case id
            case createdAt = "created_at"
            case lastRefreshedAt = "last_refreshed_at"
            case device
            case clientAddress = "client_address"
            case method, amr, current
        }

        /// Writes every member, the optional ones as `null` (never omitted).
        /// - Parameter encoder: The encoder.
        /// - Throws: What the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastRefreshedAt, forKey: .lastRefreshedAt)
            try container.encode(device, forKey: .device)
            try container.encode(clientAddress, forKey: .clientAddress)
            try container.encode(method, forKey: .method)
            try container.encode(amr, forKey: .amr)
            try container.encode(current, forKey: .current)
        }
    }

    public let sessions: [Session]

    /// The wire form of the core's session views.
    /// - Parameter views: The sessions, in the order to show them.
    public init(_ views: [SessionView]) {
        sessions = views.map { view in
            Session(
                id: view.id,
                createdAt: ContractTimestamp.string(view.createdAt),
                lastRefreshedAt: view.lastRefreshedAt.map(ContractTimestamp.string),
                device: view.device,
                clientAddress: view.clientAddress,
                method: view.method,
                amr: view.amr,
                current: view.current
            )
        }
    }
}
