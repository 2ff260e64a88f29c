/// The OpenAPI 3.1 document of every endpoint, served as it is at `/openapi.yaml`: the file
/// `Resources/openapi.yaml`, embedded into the binary at build time (`.embedInCode`), so a copied
/// executable still serves it. `OpenAPIDocumentTests` keeps it true to the routes and valid
/// (openapi-spec-validator).
enum OpenAPIDocument {
    /// The document's bytes.
    static let bytes: [UInt8] = PackageResources.openapi_yaml
}
