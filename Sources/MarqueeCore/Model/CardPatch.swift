/// What `update` changes in a card: the keys the command gives, and nothing else. A card's other
/// keys and the fields it does not name keep their values (`replace` takes a whole card instead).
public struct CardPatch: Hashable, Sendable {
    /// The id, when the command repeats it (it must match the card's).
    public var id: String?
    public var title: String?
    public var body: String?
    public var color: Color?
    public var accent: Color?
    public var height: Double?
    public var direction: TextDirection?
    public var template: String?
    /// A new expiry time (seconds since the epoch).
    public var expires: Double?
    /// Fields to set, merged into the card's (the others keep their values).
    public var fields: [String: String] = [:]

    public init(
        id: String? = nil, title: String? = nil, body: String? = nil, color: Color? = nil, accent: Color? = nil,
        height: Double? = nil, direction: TextDirection? = nil, template: String? = nil, fields: [String: String] = [:],
        expires: Double? = nil
    ) {
        self.expires = expires
        self.id = id
        self.title = title
        self.body = body
        self.color = color
        self.accent = accent
        self.height = height
        self.direction = direction
        self.template = template
        self.fields = fields
    }

    /// True when the patch changes nothing but template fields.
    public var setsOnlyFields: Bool {
        title == nil && body == nil && color == nil && accent == nil && height == nil && direction == nil
            && template == nil && expires == nil
    }

    /// `card` with the patch's keys set.
    public func applied(to card: Card) -> Card {
        var result = card
        if let title { result.title = title }
        if let body { result.body = body }
        if let color { result.color = color }
        if let accent { result.accent = accent }
        if let height { result.height = height }
        if let direction { result.direction = direction }
        if let template { result.template = template }
        if let expires { result.expires = expires }
        for (name, value) in fields { result.fields[name] = value }
        return result
    }
}

extension CardPatch {
    /// The patch that turns `old` into `new` when they differ only in the values of fields `new`
    /// gives (none removed): what `apply` sends as an `update`, so only the elements showing those
    /// fields crossfade. Nil when anything else differs.
    public init?(fieldsOnlyFrom old: Card, to new: Card) {
        var sameElsewhere = old
        sameElsewhere.fields = new.fields
        guard sameElsewhere == new, old.template != nil, Set(old.fields.keys).isSubset(of: new.fields.keys) else {
            return nil
        }
        self.init(fields: new.fields.filter { old.fields[$0.key] != $0.value })
    }
}
