extension Scene {
    /// The screen changed size (a display of another size plugged in): the deck is laid out for
    /// the new size as a `load` of the same deck would (the scroll offset kept where it still
    /// fits, a running scroll ended and returned, transitions ended where they were going).
    public mutating func resize(screen: PixelSize) -> ScrollFinished? {
        guard screen != screenSize else { return nil }
        screenSize = screen
        return replaceDeck(deck)
    }
}
