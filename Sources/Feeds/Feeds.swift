// Feeds
