/// Who acted and from where, for the audit log: bound for the length of a request by the server (and
/// by the CLI and admin calls), read where an audit row is made.
///
/// Read ``current`` before a `store.write` body, never inside one: SQLite's group commit runs several
/// requests' bodies in one task, so inside a body the task-local may be another request's.
public struct AuditOrigin: Sendable, Equatable {
    /// `user` (a request by or for the user it concerns), `admin:<key name>`, `cli` or `system`.
    public var actor: String
    /// The request's address, user agent and id; `nil` outside a request.
    public var client: ClientInfo?

    /// An origin.
    /// - Parameters:
    ///   - actor: `user`, `admin:<key name>`, `cli` or `system`.
    ///   - client: The request's origin, `nil` outside a request.
    public init(actor: String, client: ClientInfo?) {
        self.actor = actor
        self.client = client
    }

    /// Work no request started (maintenance, tests).
    public static let system = AuditOrigin(actor: "system", client: nil)
    /// The operator at the terminal.
    public static let commandLine = AuditOrigin(actor: "cli", client: nil)
    /// Apple's server-to-server notifications.
    public static let apple = AuditOrigin(actor: "apple", client: nil)

    /// The origin of the work running now.
    @TaskLocal public static var current: AuditOrigin = .system
}
