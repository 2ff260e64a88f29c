import Foundation

extension GatehouseConfiguration {
    /// An origin as browsers send it in `Origin`: `scheme://host[:port]`, lowercase, no path. `*` and
    /// `null` are refused: the list is of the apps' own origins.
    static func corsOrigin(_ text: String) throws -> String {
        guard text != "*", text.lowercased() != "null" else {
            throw ConfigurationError("GATEHOUSE_CORS_ORIGINS lists your apps' exact origins (https://app.example.com); '\(text)' is refused.")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = url.host,
            url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw ConfigurationError("GATEHOUSE_CORS_ORIGINS: '\(text)' is not an origin (scheme://host[:port], no path or trailing slash).")
        }
        return "\(scheme)://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }
}
