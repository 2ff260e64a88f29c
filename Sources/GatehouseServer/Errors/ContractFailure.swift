import GatehouseAPI
import HTTPTypes
import Hummingbird
import NIOCore

/// An error the contract has a body for: a wire code, a safe message and a status, rendered as
/// the document's `Error` schema (`Components.Schemas._Error`) with `Cache-Control: no-store`. ``GatehouseError`` (the core's) and
/// ``TransportError`` (this target's) are the two kinds.
protocol ContractFailure: HTTPResponseError {
    /// The stable wire code, e.g. `invalid_request`.
    var wireCode: String { get }
    /// Text safe to show to a client.
    var message: String { get }
    /// Detail for the log only.
    var logCause: String? { get }
    /// Headers the answer carries besides the content type and `no-store`.
    var extraHeaders: HTTPFields { get }
    /// The second-step challenge of an `mfa_required` refusal, sent in the body.
    var mfaToken: String? { get }
}

extension ContractFailure {
    /// No second step, for every refusal but `mfa_required`.
    var mfaToken: String? { nil }

    /// The contract's error response.
    /// - Returns: The response.
    func contractResponse() -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        headers.append(contentsOf: extraHeaders)
        let body = (try? Components.Schemas._Error(self).jsonBytes()) ?? []
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
