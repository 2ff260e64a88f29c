/// A JSON request body of the contract: the type swift-openapi-generator derives from the operation's
/// schema (or, for the two PATCH bodies, one decoded by hand), with its members as the document
/// declares them in ``fields``, generated into `RequestSchemas` by `scripts/generate-openapi.sh`.
public protocol ContractRequest: Decodable, Sendable {
    /// The members the body reader checks before decoding, in the document's order.
    static var fields: [ContractField] { get }
}
