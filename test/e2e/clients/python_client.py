"""Drives the official Python Kubernetes client (Debian's python3-kubernetes) against a server.

Usage: python_client.py URL DOMAIN NAMESPACE [expired RESOURCE_VERSION]
The second form only watches configmaps of NAMESPACE from RESOURCE_VERSION (which the caller has let
the server compact away) and reports how the watch ended. Prints one JSON object on stdout: for every step its result, or {"error": ...} when the client
raised. The vitest suite (python.test.ts) asserts on it; the script itself judges nothing.
"""
import json
import sys
import threading
import time
import traceback

from kubernetes import client, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

URL, DOMAIN, NS = sys.argv[1], sys.argv[2], sys.argv[3]
NETWORKING = "networking." + DOMAIN

config = client.Configuration()
config.host = URL
api_client = client.ApiClient(config)
core = client.CoreV1Api(api_client)
apps = client.AppsV1Api(api_client)
custom = client.CustomObjectsApi(api_client)

results = {}


def step(name, fn):
    try:
        results[name] = fn()
    except ApiException as e:
        results[name] = {"error": "ApiException", "status": e.status, "body": e.body}
    except Exception as e:  # noqa: BLE001 - every failure is reported to the test, not raised
        results[name] = {"error": type(e).__name__, "message": str(e), "trace": traceback.format_exc()}


def create_namespace():
    ns = core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=NS)))
    return {"name": ns.metadata.name, "phase": ns.status.phase, "labels": ns.metadata.labels}


def list_namespaces():
    return sorted(n.metadata.name for n in core.list_namespace().items)


def create_configmap(name, data):
    cm = core.create_namespaced_config_map(
        NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, labels={"app": "py"}), data=data)
    )
    return {"name": cm.metadata.name, "data": cm.data, "resourceVersion": cm.metadata.resource_version,
            "created": cm.metadata.creation_timestamp.isoformat()}


def list_configmaps():
    lst = core.list_namespaced_config_map(NS, label_selector="app=py")
    return {"names": sorted(c.metadata.name for c in lst.items), "resourceVersion": lst.metadata.resource_version}


def create_secret():
    s = core.create_namespaced_secret(
        NS, client.V1Secret(metadata=client.V1ObjectMeta(name="py-secret"), string_data={"password": "hunter2"})
    )
    return {"data": s.data, "type": s.type}


def create_service():
    svc = core.create_namespaced_service(NS, client.V1Service(
        metadata=client.V1ObjectMeta(name="py-svc"),
        spec=client.V1ServiceSpec(selector={"app": "py"}, ports=[client.V1ServicePort(port=80)]),
    ))
    return {"clusterIP": svc.spec.cluster_ip, "type": svc.spec.type, "targetPort": svc.spec.ports[0].target_port}


def create_deployment():
    labels = {"app": "py"}
    d = apps.create_namespaced_deployment(NS, client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-deploy"),
        spec=client.V1DeploymentSpec(
            replicas=2,
            selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="nginx")]),
            ),
        ),
    ))
    scale = apps.read_namespaced_deployment_scale("py-deploy", NS)
    patched = apps.patch_namespaced_deployment_scale("py-deploy", NS, {"spec": {"replicas": 4}})
    return {"replicas": d.spec.replicas, "strategy": d.spec.strategy.type, "scale": scale.spec.replicas,
            "patchedScale": patched.spec.replicas,
            "after": apps.read_namespaced_deployment("py-deploy", NS).spec.replicas}


def list_in_pages():
    """limit and continue: pages of one item until the server says there are no more."""
    names, token, pages = [], None, 0
    while True:
        kwargs = {"limit": 1, "label_selector": "app=py"}
        if token:
            kwargs["_continue"] = token
        page = core.list_namespaced_config_map(NS, **kwargs)
        pages += 1
        names += [c.metadata.name for c in page.items]
        token = page.metadata._continue
        if not token:
            return {"names": names, "pages": pages, "remaining": page.metadata.remaining_item_count}


def delete_collection():
    core.create_namespaced_config_map(NS, client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="py-doomed", labels={"doomed": "yes"})))
    status = core.delete_collection_namespaced_config_map(NS, label_selector="doomed=yes")
    left = core.list_namespaced_config_map(NS, label_selector="doomed=yes").items
    return {"kind": status.kind, "left": len(left)}


def patch_configmap():
    # The Python client picks the patch content type itself: a dict goes as strategic merge patch.
    cm = core.patch_namespaced_config_map("py-a", NS, {"data": {"patched": "yes"}})
    return cm.data


def watch_configmaps(resource_version):
    """Watches from a list's resourceVersion while another thread writes; returns the events seen."""
    seen = []

    def writer():
        time.sleep(0.3)
        core.create_namespaced_config_map(NS, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="py-w", labels={"app": "py"}), data={"v": "1"}))
        core.patch_namespaced_config_map("py-w", NS, {"data": {"v": "2"}})
        core.delete_namespaced_config_map("py-w", NS)

    t = threading.Thread(target=writer)
    t.start()
    w = watch.Watch()
    try:
        for ev in w.stream(core.list_namespaced_config_map, NS, label_selector="app=py",
                           resource_version=resource_version, timeout_seconds=10):
            obj = ev["object"]
            seen.append({"type": ev["type"], "name": obj.metadata.name, "data": obj.data,
                         "kind": type(obj).__name__, "resourceVersion": obj.metadata.resource_version})
            if ev["type"] == "DELETED":
                w.stop()
    finally:
        t.join()
    return seen


def custom_objects():
    """An orch.io (or k8s.io) group through CustomObjectsApi: create, list, get, patch, delete."""
    body = {"apiVersion": NETWORKING + "/v1", "kind": "IngressClass",
            "metadata": {"name": NS + "-class"}, "spec": {"controller": "example.com/py"}}
    created = custom.create_cluster_custom_object(NETWORKING, "v1", "ingressclasses", body)
    listed = custom.list_cluster_custom_object(NETWORKING, "v1", "ingressclasses")
    got = custom.get_cluster_custom_object(NETWORKING, "v1", "ingressclasses", NS + "-class")
    patched = custom.patch_cluster_custom_object(NETWORKING, "v1", "ingressclasses", NS + "-class",
                                                 {"metadata": {"labels": {"patched": "yes"}}})
    ing = custom.create_namespaced_custom_object(NETWORKING, "v1", NS, "ingresses", {
        "apiVersion": NETWORKING + "/v1", "kind": "Ingress", "metadata": {"name": "py-ing"},
        "spec": {"ingressClassName": NS + "-class",
                 "defaultBackend": {"service": {"name": "py-svc", "port": {"number": 80}}}}})
    deleted = custom.delete_cluster_custom_object(NETWORKING, "v1", "ingressclasses", NS + "-class")
    return {"created": created["apiVersion"], "listed": [i["metadata"]["name"] for i in listed["items"]],
            "got": got["spec"]["controller"], "patchedLabels": patched["metadata"].get("labels"),
            "ingress": [ing["kind"], ing["apiVersion"]], "deleted": deleted.get("status")}


def dynamic_client():
    """The dynamic client finds kinds through discovery (/api, /apis and every group version)."""
    dyn = DynamicClient(api_client)
    ingresses = dyn.resources.get(api_version=NETWORKING + "/v1", kind="Ingress")
    cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
    deployments = dyn.resources.get(group="apps", api_version="v1", kind="Deployment")
    created = cms.create(namespace=NS, body={"apiVersion": "v1", "kind": "ConfigMap",
                                             "metadata": {"name": "py-dyn"}, "data": {"d": "1"}})
    seen = []
    for ev in ingresses.watch(namespace=NS, timeout=5):
        seen.append([ev["type"], ev["object"].metadata.name, ev["object"].apiVersion])
        break  # the one existing ingress arrives as ADDED; that is all this step needs
    return {"ingressPath": ingresses.path(namespace=NS), "watched": seen, "ingresses": [i.metadata.name for i in ingresses.get(namespace=NS).items],
            "deployments": [d.metadata.name for d in deployments.get(namespace=NS).items],
            "configmap": created.data.d, "namespaced": ingresses.namespaced}


def watch_expired(resource_version):
    """A watch from a compacted version: the client turns the 410 ERROR event into an ApiException."""
    seen = []
    for ev in watch.Watch().stream(core.list_namespaced_config_map, NS, resource_version=resource_version,
                                   timeout_seconds=10):
        seen.append(ev["type"])
    return {"events": seen}


if len(sys.argv) > 5 and sys.argv[4] == "expired":
    step("watchExpired", lambda: watch_expired(sys.argv[5]))
    print(json.dumps(results))
    sys.exit(0)

step("createNamespace", create_namespace)
step("listNamespaces", list_namespaces)
step("createConfigMapA", lambda: create_configmap("py-a", {"k": "a"}))
step("createConfigMapB", lambda: create_configmap("py-b", {"k": "b"}))
step("listConfigMaps", list_configmaps)
step("listInPages", list_in_pages)
step("deleteCollection", delete_collection)
step("patchConfigMap", patch_configmap)
step("createSecret", create_secret)
step("createService", create_service)
step("createDeployment", create_deployment)
rv = results.get("listConfigMaps", {}).get("resourceVersion") if isinstance(results.get("listConfigMaps"), dict) else None
step("watchFromList", lambda: watch_configmaps(rv))
step("customObjects", custom_objects)
step("dynamicClient", dynamic_client)
step("deleteNamespace", lambda: core.delete_namespace(NS).kind)

print(json.dumps(results))
