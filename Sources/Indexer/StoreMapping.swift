import EngramCore
import Foundation

/// How store items become index documents.
public enum StoreMapping {
    /// The document for a memory; its expiry comes from the decay model.
    public static func document(for m: Memory, decay: DecayModel) -> IndexDocument {
        IndexDocument(kind: .memory, id: m.id, title: m.title, body: m.content, type: m.type.rawValue, tags: m.tags,
                      context: m.context, curriculumID: nil, created: m.created, expiry: decay.expiry(of: m))
    }

    /// The document for a curriculum (never expires).
    public static func document(for c: Curriculum) -> IndexDocument {
        IndexDocument(kind: .curriculum, id: c.id, title: c.title, body: c.description.isEmpty ? c.title : c.title + "\n" + c.description,
                      type: nil, tags: [], context: nil, curriculumID: c.id, created: c.created, expiry: nil)
    }

    /// The document for a topic (never expires).
    public static func document(for t: Topic) -> IndexDocument {
        IndexDocument(kind: .topic, id: t.id, title: t.title, body: t.notes.isEmpty ? t.title : t.title + "\n" + t.notes,
                      type: nil, tags: t.flagged ? ["flagged"] : [], context: nil, curriculumID: t.curriculumID,
                      created: t.created, expiry: nil)
    }

    /// The index kind for an outbox entry.
    public static func kind(_ k: OutboxEntry.Kind) -> IndexKind {
        switch k {
        case .memory: .memory
        case .curriculum: .curriculum
        case .topic: .topic
        }
    }
}
