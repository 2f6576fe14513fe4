/**
 * One entry per widget model. anywidget wraps the model in a new object for `initialize` and
 * for every `render`, so the wrapper cannot be the key: the model's `_instance` trait is, per
 * widget manager. A model without one (saved before the trait existed) falls back to its
 * wrapper.
 */

/** What the registry reads of a model: its `_instance` trait and its widget manager. */
export interface InstanceModel {
  get(key: "_instance"): unknown;
  widget_manager: unknown;
}

export class ModelEntries<E> {
  private readonly byManager = new WeakMap<object, Map<string, E>>();
  private readonly byWrapper = new WeakMap<object, E>();

  /** The entry kept for `model`, if any. */
  get(model: InstanceModel): E | undefined {
    const instance = instanceOf(model);
    if (instance === null) return this.byWrapper.get(model);
    return this.byManager.get(instance.manager)?.get(instance.key);
  }

  /** Keep `entry` for `model`; null forgets it. */
  set(model: InstanceModel, entry: E | null): void {
    const instance = instanceOf(model);
    if (instance === null) {
      if (entry === null) this.byWrapper.delete(model);
      else this.byWrapper.set(model, entry);
      return;
    }
    let entries = this.byManager.get(instance.manager);
    if (entries === undefined) {
      entries = new Map();
      this.byManager.set(instance.manager, entries);
    }
    if (entry === null) entries.delete(instance.key);
    else entries.set(instance.key, entry);
  }
}

function instanceOf(model: InstanceModel): { manager: object; key: string } | null {
  const key = model.get("_instance");
  const manager = model.widget_manager;
  if (typeof key !== "string" || key === "" || typeof manager !== "object" || manager === null)
    return null;
  return { manager, key };
}
