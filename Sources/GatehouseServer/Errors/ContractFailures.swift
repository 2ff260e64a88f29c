import GatehouseCore
import Hummingbird

/// Every thrown error as a ``ContractFailure``: ours as they are; Hummingbird's and NIO's
/// (`HTTPError`, `NIOTooManyBytesError`) by their status; anything else an opaque 500 whose cause
/// goes to the log.
enum ContractFailures {
    /// - Parameter error: Anything a handler or middleware threw.
    /// - Returns: The failure to answer with.
    static func from(_ error: any Error) -> any ContractFailure {
        switch error {
        case let error as GatehouseError: return error
        case let error as TransportError: return error
        case let error as any HTTPResponseError:
            switch error.status {
            case .notFound: return TransportError.noSuchResource
            case .contentTooLarge: return TransportError(.payloadTooLarge, "The request body is too large.")
            case .badRequest: return GatehouseError.invalidRequest("The request is malformed.")
            default: return GatehouseError.internalError(cause: "\(type(of: error)) with status \(error.status.code)")
            }
        default:
            return GatehouseError.internalError(cause: String(reflecting: error))
        }
    }
}
