import { Send } from "@langchain/langgraph";

/** Marks a payload as an instance, which LangGraph's Send keeps as it is. */
class SentPayload {}

/**
 * A Send whose payload reaches the node by reference. `new Send(node, args)` rebuilds a plain-object payload
 * recursively (it looks for nested Send and Command objects), so a payload holding an artifact copied every
 * metric row and a run every point of its series, once per Send; a class instance is passed through untouched.
 * Nodes never mutate their input, so the copy bought nothing.
 */
export function sendByReference<T extends object>(node: string, payload: T): Send<string, T> {
  return new Send(node, Object.assign(new SentPayload(), payload));
}
