import Foundation

/// One row of the audit log: written in the transaction of the change it records, so it exists exactly
/// when the change committed. It never holds a secret (no password, code, token or key).
public struct AuditEntry: Sendable, Equatable {
    /// A UUIDv7: the log's order and its pagination cursor.
    public var id: String
    /// When it happened.
    public var at: Date
    /// What happened.
    public var event: AuditEvent
    /// The user it concerns, when there is one.
    public var userID: String?
    /// Who acted: `user`, `admin:<key name>`, `cli` or `system`.
    public var actor: String
    /// A short qualifier: the sign-in method, the refusal's reason class, the admin read's target.
    public var detail: String?
    /// The client's address (as rate limits see it), when a request did it.
    public var clientAddress: String?
    /// The request's `User-Agent`, cut to ``ClientInfo/maximumUserAgentLength``.
    public var userAgent: String?
    /// The request id (`X-Request-Id`), to find the request's log lines.
    public var requestID: String?

    /// An entry as stored.
    /// - Parameters:
    ///   - id: A UUIDv7.
    ///   - at: When it happened.
    ///   - event: What happened.
    ///   - userID: The user it concerns.
    ///   - actor: Who acted.
    ///   - detail: A short qualifier, never a secret.
    ///   - clientAddress: The client's address.
    ///   - userAgent: The request's user agent.
    ///   - requestID: The request id.
    public init(
        id: String,
        at: Date,
        event: AuditEvent,
        userID: String?,
        actor: String,
        detail: String? = nil,
        clientAddress: String? = nil,
        userAgent: String? = nil,
        requestID: String? = nil
    ) {
        self.id = id
        self.at = at
        self.event = event
        self.userID = userID
        self.actor = actor
        self.detail = detail.map { String($0.prefix(200)) }
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.requestID = requestID
    }

    /// An entry made now for `origin`.
    /// - Parameters:
    ///   - event: What happened.
    ///   - userID: The user it concerns.
    ///   - detail: A short qualifier, never a secret.
    ///   - origin: Who acted and from where (read before the write it goes into).
    ///   - at: When.
    ///   - random: Makes the UUIDv7.
    /// - Returns: The entry.
    public static func make(
        _ event: AuditEvent,
        userID: String?,
        detail: String? = nil,
        origin: AuditOrigin,
        at: Date,
        random: any RandomSource
    ) -> AuditEntry {
        AuditEntry(
            id: random.uuidV7(at: at),
            at: at,
            event: event,
            userID: userID,
            actor: origin.actor,
            detail: detail,
            clientAddress: origin.client?.address,
            userAgent: origin.client?.userAgent,
            requestID: origin.client?.requestID
        )
    }
}
