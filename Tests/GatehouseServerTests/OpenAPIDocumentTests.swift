import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("OpenAPI document", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct OpenAPIDocumentTests {
    /// (path, METHOD) pairs the document describes, read from its `paths:` section.
    static func documented(_ yaml: String) -> Set<String> {
        var result = Set<String>()
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            if inPaths, let first = line.first, first != " " { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "patch", "delete"].contains(method) { result.insert("\(method.uppercased()) \(path)") }
            }
        }
        return result
    }

    /// With `GATEHOUSE_COMPAT_API_V1` on (and passkeys), every route is served; off, all but the seed 003
    /// routes under `/api/v1`.
    @Test(arguments: [true, false]) func describesExactlyTheRoutesServed(compat: Bool) async throws {
        let app = try await TestApp.make {
            $0.compatAPIV1 = compat
            $0.passkeys.rpID = "gatehouse.test"
        }
        try await app.router { client in
            let yaml = try await client.send(.get, "/openapi.yaml").bodyText
            let served = Set(app.built.routes.all.map { "\($0.method) \($0.path)" })
            let documented = Self.documented(yaml).filter { compat || !$0.contains(" /api/v1/") }
            #expect(!served.isEmpty)
            #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
            #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
        }
    }

    @Test func isAValidOpenAPI31Document() async throws {
        let app = try await TestApp.make()
        let yaml = try await app.router { client in try await client.send(.get, "/openapi.yaml").bodyText }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        if let result = try await PythonScript.run("validate_openapi.py", arguments: [file.path], requiring: "openapi_spec_validator") {
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test func documentsEveryErrorCodeTheCoreAndTheTransportHave() async throws {
        let app = try await TestApp.make()
        let yaml = try await app.router { client in try await client.send(.get, "/openapi.yaml").bodyText }
        let codes: [GatehouseError.Code] = [
            .invalidRequest, .invalidPassword, .codeMismatch, .codeExpired, .invalidCredentials, .invalidToken, .invalidGrant, .unauthorized,
            .userNotConfirmed, .forbidden, .providerDisabled, .notFound, .conflict, .tooManyRequests, .internalError, .upstreamUnavailable,
            .unavailable,
        ]
        for code in codes { #expect(yaml.contains(code.rawValue), "\(code.rawValue)") }
        // 404 for unknown paths, 405, 413 and 415 are HTTP's own refusals, rendered by the server.
        for code in TransportError.Code.allCases { #expect(yaml.contains(code.rawValue), "\(code.rawValue)") }
    }
}
