import GatehouseInfrastructure
import HTTPTypes
import Hummingbird

/// A response body of the contract: a type swift-openapi-generator derives from one of
/// `openapi.yaml`'s component schemas (`GatehouseAPI`), made a `ContractBody` in the generated
/// `ResponseSchemas` with its schema's ``ResponseRules``. Each is filled from the core's value by one
/// `init` in this folder (`Components.Schemas.<Name>+<Core type>.swift`) and written by ``ContractEncoder``:
/// keys sorted (equal answers are equal bytes), slashes unescaped, required nullable members as `null`,
/// optional ones omitted, times as RFC 3339 in UTC.
protocol ContractBody: Encodable, Sendable {
    /// What the schema says about writing the type (generated).
    static var rules: ResponseRules { get }
}

extension ContractBody {
    /// The body as a JSON value.
    /// - Returns: The value.
    /// - Throws: What an `encode(to:)` of the body's members throws (the generated ones do not).
    func jsonValue() throws -> JSONValue {
        try ContractEncoder.json(of: self, rules: Self.rules)
    }

    /// The body's JSON bytes.
    /// - Returns: The UTF-8 bytes.
    /// - Throws: What ``jsonValue()`` throws.
    func jsonBytes() throws -> [UInt8] {
        try jsonValue().serialized()
    }

    /// The HTTP response that carries this body.
    /// - Parameters:
    ///   - status: The status to answer with.
    ///   - noStore: Whether to forbid caching (bodies with tokens, codes or profiles).
    /// - Returns: The response.
    /// - Throws: What ``jsonValue()`` throws.
    func response(_ status: HTTPResponse.Status = .ok, noStore: Bool = true) throws -> Response {
        JSONResponse.make(status, body: try jsonBytes(), noStore: noStore)
    }
}
