package io.p2kv.internal.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.ReflectionException;

/**
 * A read-only MBean whose attributes are read from a snapshot: {@link #getAttributes} takes one
 * snapshot for all the attributes it is asked for, so a monitoring client that reads a whole bean
 * (as JConsole and most exporters do) sees consistent values and pays for one snapshot.
 *
 * <p>Attribute values are JDK types only (primitives, strings, primitive arrays), so any remote
 * JMX client can read them without p2kv on its class path.
 *
 * @param <S> the snapshot type
 */
final class SnapshotMBean<S> implements DynamicMBean {
  /**
   * One attribute.
   *
   * @param <S> the snapshot type
   * @param name attribute name
   * @param type the Java type of its values
   * @param description what it means
   * @param read reads it from a snapshot
   */
  record Attr<S>(String name, Class<?> type, String description, Function<S, Object> read) {}

  private final Supplier<S> snapshots;
  private final Map<String, Attr<S>> attributes = new LinkedHashMap<>();
  private final MBeanInfo info;

  SnapshotMBean(String className, String description, Supplier<S> snapshots, List<Attr<S>> attributes) {
    this.snapshots = snapshots;
    List<MBeanAttributeInfo> infos = new ArrayList<>();
    for (Attr<S> a : attributes) {
      this.attributes.put(a.name(), a);
      infos.add(new MBeanAttributeInfo(a.name(), a.type().getName(), a.description(), true, false, false));
    }
    this.info = new MBeanInfo(className, description, infos.toArray(new MBeanAttributeInfo[0]), null, null, null);
  }

  private S snapshot() throws MBeanException {
    try {
      return snapshots.get();
    } catch (RuntimeException e) {
      // A JDK exception type, so remote clients can deserialize it (e.g. the store is closing).
      throw new MBeanException(new IllegalStateException(e.getMessage()), e.getMessage());
    }
  }

  @Override
  public Object getAttribute(String name) throws AttributeNotFoundException, MBeanException {
    Attr<S> a = attributes.get(name);
    if (a == null) {
      throw new AttributeNotFoundException("no attribute " + name);
    }
    return a.read().apply(snapshot());
  }

  @Override
  public AttributeList getAttributes(String[] names) {
    AttributeList list = new AttributeList();
    S snapshot;
    try {
      snapshot = snapshot();
    } catch (MBeanException e) {
      return list; // JMX convention: attributes that cannot be read are left out
    }
    for (String name : names) {
      Attr<S> a = attributes.get(name);
      if (a != null) {
        list.add(new Attribute(name, a.read().apply(snapshot)));
      }
    }
    return list;
  }

  @Override
  public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
    throw new AttributeNotFoundException("attribute " + attribute.getName() + " is read-only");
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
    throw new ReflectionException(new NoSuchMethodException(actionName), "no operations: " + actionName);
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    return info;
  }
}
