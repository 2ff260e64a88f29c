import Foundation

/// Builds the URLs the authorization server sends a browser to: a registered URI with parameters
/// added to whatever query it already has, every value percent-encoded (including `+`, which some
/// parsers read as a space).
public enum RedirectURL {
    /// `base` with `items` added to its query.
    /// - Parameters:
    ///   - base: A registered redirect or sign-out URI, or a provider's endpoint.
    ///   - items: The parameters to add, in order.
    /// - Returns: The URL as text.
    public static func make(_ base: String, adding items: [(name: String, value: String)]) -> String {
        guard var components = URLComponents(string: base) else { return base }
        var query = components.queryItems ?? []
        query += items.map { URLQueryItem(name: $0.name, value: $0.value) }
        components.queryItems = query
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "'", with: "%27")
        return components.string ?? base
    }

    /// Where a refusal sends the browser: the redirect URI with `error`, `error_description` and `state`.
    /// - Parameter refusal: A redirectable refusal.
    /// - Returns: The URL, or `nil` for a refusal that must be shown as a page.
    public static func make(for refusal: AuthorizationRefusal) -> String? {
        guard case .redirect(let target, let error, let description, let state) = refusal else { return nil }
        var items: [(name: String, value: String)] = [("error", error), ("error_description", description)]
        if let state { items.append(("state", state)) }
        return make(target, adding: items)
    }
}
