import Feeds

// Bars may send real-time signals before parsing is done; ignore them from the first instruction.
FeedSignals.ignoreForOneShot()
EngramFeedCommand.main()
