import GatehouseCore
import Hummingbird
import Logging

/// The context of a protected route: everything of ``GatehouseRequestContext`` plus the caller,
/// who is never missing. Only ``BearerAuthenticator`` produces one, so a handler that takes this
/// context cannot be reached without a verified access token.
struct AuthenticatedRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The verified caller.
    let principal: Principal
    /// Where the request came from (for rate limits).
    let client: ClientInfo

    init(context: GatehouseRequestContext) throws {
        guard let principal = context.principal else { throw GatehouseError.unauthorized(cause: "no authenticator ran") }
        self.coreContext = context.coreContext
        self.principal = principal
        self.client = context.client
    }
}
