import Foundation
import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

/// The web page at `/` (sign-up, sign-in, reset, profile), its assets under `/assets/`, with a strict
/// Content-Security-Policy that allows Google's and Apple's sign-in scripts only when configured.
struct WebPage: Sendable {
    struct File: Sendable {
        let contentType: String
        let bytes: [UInt8]
        let etag: String
    }

    let files: [String: File]
    let index: [UInt8]
    let contentSecurityPolicy: String
    /// Serve files from this directory instead (development: edit and reload without rebuilding).
    let liveDirectory: String?

    init(configuration c: GatehouseConfiguration) {
        var files: [String: File] = [:]
        for (name, asset) in WebAssets.files {
            files[name] = File(contentType: asset.contentType, bytes: asset.bytes, etag: "\"\(asset.version)\"")
        }
        self.files = files
        self.liveDirectory = c.webDirectory
        var config: [String: JSONValue] = ["issuer": .string(c.resolvedIssuer), "app_name": .string(c.pool.appName)]
        if let google = c.webGoogleClientID { config["google_client_id"] = .string(google) }
        if let services = c.appleServicesID, !c.allowedAppleAudiences.isEmpty {
            config["apple_services_id"] = .string(services)
            config["apple_redirect_uri"] = .string(c.webAppleRedirectURI ?? c.resolvedIssuer + "/")
        }
        let meta =
            #"<meta name="gatehouse-config" content=""# + AppleCallbackPage.escapeAttribute(JSONValue.object(config).serializedString()) + #"">"#
        let template = String(decoding: files["index.html"]?.bytes ?? [], as: UTF8.self)
        index = Array(template.replacingOccurrences(of: "<!--GATEHOUSE_CONFIG-->", with: meta).utf8)

        contentSecurityPolicy = ContentSecurityPolicy.webPage(for: c).description
    }

    func headers(_ contentType: String, cache: String) -> HTTPFields {
        [
            .contentType: contentType, .cacheControl: cache, .contentSecurityPolicy: contentSecurityPolicy,
            .init("X-Content-Type-Options")!: "nosniff", .init("Referrer-Policy")!: "no-referrer", .init("X-Frame-Options")!: "DENY",
        ]
    }

    func indexResponse() -> Response {
        if let liveDirectory, let data = FileManager.default.contents(atPath: liveDirectory + "/index.html") {
            let meta = String(decoding: index, as: UTF8.self).components(separatedBy: "\n").first { $0.contains("gatehouse-config") } ?? ""
            let page = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<!--GATEHOUSE_CONFIG-->", with: meta)
            return Response(
                status: .ok,
                headers: headers("text/html; charset=utf-8", cache: "no-cache"),
                body: .init(byteBuffer: ByteBuffer(string: page))
            )
        }
        return Response(
            status: .ok,
            headers: headers("text/html; charset=utf-8", cache: "no-cache"),
            body: .init(byteBuffer: ByteBuffer(bytes: index))
        )
    }

    func asset(_ name: String) throws -> Response {
        guard name != "index.html", let file = files[name] else { throw TransportError(.notFound, "No such file.") }
        if let liveDirectory, let data = FileManager.default.contents(atPath: liveDirectory + "/" + name) {
            return Response(
                status: .ok,
                headers: headers(file.contentType, cache: "no-cache"),
                body: .init(byteBuffer: ByteBuffer(bytes: Array(data)))
            )
        }
        var fields = headers(file.contentType, cache: "public, max-age=300")
        fields[.eTag] = file.etag
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
