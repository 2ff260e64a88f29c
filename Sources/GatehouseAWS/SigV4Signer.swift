import Crypto
import Foundation

/// AWS Signature Version 4 (pure: no networking). Signs a request's method, path, query, headers and
/// body hash into an `Authorization` header, as the AWS General Reference describes, and is checked
/// against AWS's published test-suite vectors.
public struct SigV4Signer: Sendable {
    public struct Credentials: Sendable, Equatable {
        public var accessKeyID: String
        public var secretAccessKey: String
        public var sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    public struct Request: Sendable {
        public var method: String
        /// The path as sent (already URI-encoded by the caller, e.g. `/` or `/a%20b`).
        public var path: String
        /// Query parameters (raw, unencoded); the signer encodes and sorts them.
        public var query: [(String, String)]
        /// Header names and values as sent; `host` must be among them.
        public var headers: [(String, String)]
        public var body: [UInt8]

        public init(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)], body: [UInt8]) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }
    }

    public var credentials: Credentials
    public var region: String
    public var service: String

    public init(credentials: Credentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to `request`: `X-Amz-Date`, `X-Amz-Security-Token` (with a session token)
    /// and `Authorization`.
    public func signatureHeaders(for request: Request, date: Date) -> [(String, String)] {
        let (amzDate, _) = Self.timestamps(date)
        var request = request
        request.headers.append(("X-Amz-Date", amzDate))
        if let token = credentials.sessionToken { request.headers.append(("X-Amz-Security-Token", token)) }
        let authorization = self.authorization(for: request, date: date)
        var added = [("X-Amz-Date", amzDate)]
        if let token = credentials.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        added.append(("Authorization", authorization))
        return added
    }

    /// The `Authorization` header for a request whose headers already include `X-Amz-Date`.
    public func authorization(for request: Request, date: Date) -> String {
        let (_, day) = Self.timestamps(date)
        let canonical = Self.canonicalRequest(request)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = stringToSign(canonicalRequest: canonical.text, date: date)
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: signingKey(day: day)))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
    }

    public func stringToSign(canonicalRequest: String, date: Date) -> String {
        let (amzDate, day) = Self.timestamps(date)
        return ["AWS4-HMAC-SHA256", amzDate, "\(day)/\(region)/\(service)/aws4_request", Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
    }

    func signingKey(day: String) -> SymmetricKey {
        func hmac(_ key: SymmetricKey, _ text: String) -> SymmetricKey {
            SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
        }
        let dateKey = hmac(SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8)), day)
        return hmac(hmac(hmac(dateKey, region), service), "aws4_request")
    }

    /// The canonical request and its signed-header list.
    public static func canonicalRequest(_ request: Request) -> (text: String, signedHeaders: String) {
        var grouped: [String: [String]] = [:]
        for (name, value) in request.headers {
            grouped[name.lowercased(), default: []].append(trimAndCollapse(value))
        }
        let names = grouped.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(grouped[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        var encoded: [(name: String, value: String)] = []
        for (name, value) in request.query {
            encoded.append((uriEncode(name, encodeSlash: true), uriEncode(value, encodeSlash: true)))
        }
        encoded.sort { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        let query = encoded.map { $0.name + "=" + $0.value }.joined(separator: "&")
        let path: String = canonicalPath(request.path)
        let bodyHash: String = hex(SHA256.hash(data: Data(request.body)))
        let parts: [String] = [request.method, path, query, canonicalHeaders, signedHeaders, bodyHash]
        let text = parts.joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// Normalises `.`/`..` segments and encodes each segment once (services other than S3).
    static func canonicalPath(_ path: String) -> String {
        if path.isEmpty { return "/" }
        var segments: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(String(segment))
            }
        }
        let trailing = path.hasSuffix("/") && !(segments.last?.isEmpty ?? true) ? "/" : ""
        let joined =
            "/" + segments.filter { !$0.isEmpty }.map { uriEncode($0.removingPercentEncoding ?? $0, encodeSlash: true) }.joined(separator: "/")
        return joined == "/" ? "/" : joined + trailing
    }

    static func trimAndCollapse(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// RFC 3986 unreserved characters stay; everything else is `%XX` in upper case.
    static func uriEncode(_ value: String, encodeSlash: Bool) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            case UInt8(ascii: "/") where !encodeSlash:
                out.append("/")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    static func timestamps(_ date: Date) -> (amzDate: String, day: String) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let day = String(format: "%04d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        return (day + String(format: "T%02d%02d%02dZ", parts.tm_hour, parts.tm_min, parts.tm_sec), day)
    }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
