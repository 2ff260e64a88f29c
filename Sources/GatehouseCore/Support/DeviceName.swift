import Foundation

/// A device in a few words from its `User-Agent` ("Chrome on macOS", "Safari on iPhone", "Gatehouse SDK
/// on iOS", "okhttp on Android", "python-requests"), for a user's list of sessions. A best guess, never
/// a security decision: a client can send any `User-Agent` it likes. The words come only from a fixed
/// vocabulary, or (for an unknown client) from the header's first product name, cut to
/// ``maximumProductLength`` letters, digits, `.`, `_` and `-`: nothing a client sends reaches a page
/// any other way.
public enum DeviceName {
    /// What an absent, empty or unreadable `User-Agent` is called.
    public static let unknown = "Unknown device"
    /// The longest product name taken from an unknown `User-Agent`.
    public static let maximumProductLength = 32

    /// The device a `User-Agent` names, in a few words.
    /// - Parameter userAgent: The header as stored (at most ``ClientInfo/maximumUserAgentLength`` characters), or `nil`.
    /// - Returns: The words, e.g. "Firefox on Windows"; ``unknown`` when nothing can be read.
    public static func describe(_ userAgent: String?) -> String {
        guard let userAgent, !userAgent.isEmpty else { return unknown }
        let ua = userAgent
        if let sdk = gatehouseSDK(ua) { return sdk }
        if let library = library(ua) { return library }
        if let browser = browser(ua) {
            guard let platform = platform(ua) else { return browser }
            return "\(browser) on \(platform)"
        }
        if ua.contains("CFNetwork/"), let product = product(ua) {
            // A native app on URLSession: "MyApp/1.2 CFNetwork/1490.0.4 Darwin/23.2.0".
            return product == "CFNetwork" ? "App on iOS or macOS" : "\(product) on iOS or macOS"
        }
        if ua.hasPrefix("Dalvik/") { return "App on Android" }
        if let product = product(ua), let platform = platform(ua) { return "\(product) on \(platform)" }
        return product(ua) ?? unknown
    }

    /// The Swift SDK's `GatehouseSDK/<version> (<platform> <version>)`.
    static func gatehouseSDK(_ ua: String) -> String? {
        guard ua.hasPrefix("GatehouseSDK/") else { return nil }
        let platforms = ["visionOS", "iPadOS", "iOS", "macOS", "watchOS", "tvOS", "Linux"]
        guard let platform = platforms.first(where: { ua.contains("(\($0)") || ua.contains(" \($0)") }) else { return "Gatehouse SDK" }
        return "Gatehouse SDK on \(platform)"
    }

    /// HTTP libraries and tools, which name themselves first.
    static func library(_ ua: String) -> String? {
        let lower = ua.lowercased()
        if lower.hasPrefix("okhttp/") { return "okhttp on Android" }
        let known: [(prefix: String, name: String)] = [
            ("python-requests/", "python-requests"), ("python-httpx/", "python-httpx"), ("python-urllib", "Python urllib"),
            ("aiohttp/", "aiohttp"), ("curl/", "curl"), ("wget/", "Wget"), ("go-http-client/", "Go HTTP client"),
            ("node-fetch", "node-fetch"), ("undici", "Node.js"), ("node", "Node.js"), ("axios/", "axios"), ("dart:io", "Dart"),
            ("dart/", "Dart"), ("postmanruntime/", "Postman"), ("insomnia/", "Insomnia"), ("httpie/", "HTTPie"),
            ("boto3/", "boto3"), ("botocore/", "botocore"), ("aws-sdk-", "AWS SDK"), ("aws-amplify/", "AWS Amplify"),
            ("java-http-client/", "Java HTTP client"), ("apache-httpclient/", "Apache HttpClient"), ("ktor-client", "Ktor client"),
            ("async-http-client/", "AsyncHTTPClient"),
        ]
        return known.first { lower.hasPrefix($0.prefix) }?.name
    }

    /// A browser, most specific first (Edge, Opera and Samsung Internet also say Chrome; Chrome also says Safari).
    static func browser(_ ua: String) -> String? {
        guard ua.hasPrefix("Mozilla/") || ua.hasPrefix("Opera/") else { return nil }
        let markers: [(marker: String, name: String)] = [
            ("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("OPT/", "Opera"), ("Opera", "Opera"),
            ("SamsungBrowser/", "Samsung Internet"), ("YaBrowser/", "Yandex Browser"), ("Vivaldi/", "Vivaldi"), ("DuckDuckGo/", "DuckDuckGo"),
            ("FxiOS/", "Firefox"), ("Firefox/", "Firefox"), ("CriOS/", "Chrome"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"),
        ]
        if let found = markers.first(where: { ua.contains($0.marker) }) { return found.name }
        if ua.contains("Safari/"), ua.contains("Version/") { return "Safari" }
        if ua.contains("Trident/") || ua.contains("MSIE ") { return "Internet Explorer" }
        // An app's embedded web view on iOS sends WebKit without Safari.
        if ua.contains("AppleWebKit/"), ua.contains("Mobile/") { return "Web view" }
        return nil
    }

    /// The operating system or device, from the comment after the product.
    static func platform(_ ua: String) -> String? {
        let platforms: [(marker: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("iPod", "iPod"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Windows Phone", "Windows Phone"), ("Windows", "Windows"), ("Macintosh", "macOS"), ("Mac OS X", "macOS"),
            ("Linux", "Linux"), ("FreeBSD", "FreeBSD"),
        ]
        return platforms.first { ua.contains($0.marker) }?.name
    }

    /// The first product token's name ("MyApp" of "MyApp/1.2 …"), if it is short and plain.
    static func product(_ ua: String) -> String? {
        let name = ua.prefix { $0 != "/" && $0 != " " && $0 != "(" && $0 != ";" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "_" || scalar == "-")
        }
        guard !name.isEmpty, allowed, name.count <= maximumProductLength, name.first?.isLetter == true else { return nil }
        return String(name)
    }
}
