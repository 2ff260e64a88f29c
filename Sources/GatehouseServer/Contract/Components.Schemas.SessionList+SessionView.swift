import GatehouseAPI
import GatehouseCore

/// `GET /me/sessions`: the caller's live sessions, most recently used first.
extension Components.Schemas.SessionList {
    /// The wire form of the core's session views.
    /// - Parameter views: The sessions, in the order to show them.
    init(_ views: [SessionView]) {
        self.init(
            sessions: views.map { view in
                .init(
                    id: view.id,
                    createdAt: view.createdAt,
                    lastRefreshedAt: view.lastRefreshedAt,
                    device: view.device,
                    clientAddress: view.clientAddress,
                    method: view.method,
                    amr: view.amr,
                    current: view.current
                )
            }
        )
    }
}
