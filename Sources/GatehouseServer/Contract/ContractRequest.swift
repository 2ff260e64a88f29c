/// A request body of the contract: decoded with `Codable`, its string members declared once in
/// ``fields`` (names, presence and length limits) for the body reader and the contract tests.
public protocol ContractRequest: Decodable, Sendable {
    /// The members the body reader checks before decoding, in the order it checks them.
    static var fields: [ContractField] { get }
}
