// kasa examples in C# (HttpClient), the way a POS should talk to kasa (docs/integration.md):
//   dotnet run -- store          reachability, readiness, idempotent store, 507/508
//   dotnet run -- reprint [copy] print the pending original after paper out, or a copy
//   dotnet run -- offline [send] what was issued offline and waits (POST /api/report/offline);
//                                with `send`, one batch sent now (POST /api/document/send/offline)
// KASA_URL (default http://127.0.0.1:13083) and KASA_TOKEN configure it.
// Exit codes as the curl and Python examples: 0 done, 3 not printed, 2 not ready, 1 refused.
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

var baseUrl = new Uri((Environment.GetEnvironmentVariable("KASA_URL") ?? "http://127.0.0.1:13083").TrimEnd('/') + "/");
using var http = new HttpClient { BaseAddress = baseUrl, Timeout = TimeSpan.FromSeconds(30) };
http.DefaultRequestHeaders.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
var token = Environment.GetEnvironmentVariable("KASA_TOKEN");
if (!string.IsNullOrEmpty(token)) http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);

return args.FirstOrDefault() switch
{
    "store" => await Store(),
    "reprint" => await Reprint(args.Skip(1).FirstOrDefault() == "copy"),
    "offline" => await Offline(args.Skip(1).FirstOrDefault() == "send"),
    _ => Usage(),
};

int Usage()
{
    Console.Error.WriteLine("usage: dotnet run -- store | reprint [copy] | offline [send]");
    return 1;
}

// The API text's reachability check: a TCP connection to kasa's port.
bool Reachable()
{
    try
    {
        using var tcp = new TcpClient();
        return tcp.ConnectAsync(baseUrl.Host, baseUrl.Port).Wait(TimeSpan.FromSeconds(2));
    }
    catch (Exception) { return false; }
}

async Task<JsonNode> Get(string path) =>
    JsonNode.Parse(await http.GetStringAsync(path.TrimStart('/')))!;

// A body must say Content-Type: application/json; the answer is JSON whatever the HTTP status.
async Task<JsonNode> Post(string path, object body, string? idempotencyKey = null)
{
    using var request = new HttpRequestMessage(HttpMethod.Post, path.TrimStart('/'))
    {
        Content = new StringContent(JsonSerializer.Serialize(body), Encoding.UTF8, "application/json"),
    };
    if (idempotencyKey != null) request.Headers.Add("Idempotency-Key", idempotencyKey);
    using var response = await http.SendAsync(request);
    return JsonNode.Parse(await response.Content.ReadAsStringAsync())!;
}

async Task<int> Store()
{
    if (!Reachable()) { Console.Error.WriteLine($"nothing listens at {baseUrl} (is kasa running?)"); return 2; }
    var status = await Get("/api/status/get");
    // 300 BUSY: another request is issuing a document right now; it passes by itself (up to ~10 s).
    for (var i = 0; i < 20 && (int)status["reasonCode"]! == 300; i++)
    {
        await Task.Delay(500);
        status = await Get("/api/status/get");
    }
    if ((string?)status["state"] != "READY")
    {
        if ((int)status["reasonCode"]! == 508) { Console.Error.WriteLine("the last document is not printed yet: run reprint first"); return 3; }
        Console.Error.WriteLine($"kasa is not ready: {status["reasonCode"]} {status["reason"]}");
        return 2;
    }
    var key = Guid.NewGuid().ToString(); // one key per sale: keep it with the sale in the POS
    var sale = new
    {
        type = "PD",
        amount = 5.15m,
        externalId = "example-" + key[..8],
        documentEntries = new[]
        {
            new { name = "Káva", price = 2.50m, quantity = 2m, vatRate = "VAT_23", itemType = "SALE" },
            new { name = "Rožok", price = 0.15m, quantity = 1m, vatRate = "VAT_5", itemType = "SALE" },
        },
        payments = new Dictionary<string, decimal> { ["Hotovosť"] = 5.15m },
    };
    JsonNode? answer = null;
    for (var attempt = 1; attempt <= 3 && answer == null; attempt++)
    {
        try { answer = await Post("/api/document/store", sale, key); }
        catch (HttpRequestException e) { Console.Error.WriteLine($"no answer (attempt {attempt}): {e.Message}; repeating with the same key"); }
        catch (TaskCanceledException) { Console.Error.WriteLine($"no answer in time (attempt {attempt}); repeating with the same key"); }
        if (answer == null) await Task.Delay(TimeSpan.FromSeconds(attempt));
    }
    if (answer == null) { Console.Error.WriteLine($"kasa never answered; repeat later with key {key}"); return 1; }
    var code = (int)answer["resultCode"]!;
    var doc = answer["document"];
    switch (code)
    {
        case 0:
            Console.WriteLine($"stored {doc!["documentNumber"]} id {doc["internalDocumentId"]} okp {doc["okp"]} uuid {doc["uuid"]?.ToString() ?? "offline: sent later"}");
            return 0;
        case 507:
            Console.WriteLine($"stored {doc!["documentNumber"]} but NOT printed (printer code {answer["printResultCode"]}): fix the printer, then run reprint");
            return 3;
        case 508:
            Console.Error.WriteLine("the last document is not printed yet: run reprint first");
            return 3;
        default:
            Console.Error.WriteLine($"refused: {code} {answer["error"]}");
            return 1;
    }
}

async Task<int> Reprint(bool copy)
{
    var answer = copy ? await Post("/api/document/get", new { printer = new { } }) : await Post("/api/document/print", new { });
    var code = (int)answer["resultCode"]!;
    if (code == 0) { Console.WriteLine("printed"); return 0; }
    if (code == 505) { Console.WriteLine($"nothing waits to be printed ({answer["error"]})"); return 1; }
    Console.Error.WriteLine(code is >= 100 and <= 106 ? $"the printer still fails: {code} {answer["error"]}" : $"refused: {code} {answer["error"]}");
    return code is >= 100 and <= 106 ? 3 : 1;
}

async Task<int> Offline(bool send)
{
    if (send)
    {
        var sent = await Post("/api/document/send/offline", new { });
        if ((int)sent["resultCode"]! != 0) { Console.Error.WriteLine($"refused: {sent["resultCode"]} {sent["error"]}"); return 1; }
        Console.WriteLine($"sent now: {sent["documents"]!.AsArray().Count} document(s), {sent["locations"]!.AsArray().Count} location(s)");
    }
    var report = await Post("/api/report/offline", new { });
    if ((int)report["resultCode"]! != 0) { Console.Error.WriteLine($"refused: {report["resultCode"]} {report["error"]}"); return 1; }
    var documents = report["documents"]!.AsArray();
    Console.WriteLine($"waiting: {documents.Count} document(s), {report["locations"]!.AsArray().Count} location(s)");
    foreach (var d in documents)
    {
        var error = d!["status"]?["error"];
        var state = error != null ? $"STUCK {error["errorCode"]} {error["message"]}" : "offline";
        Console.WriteLine($"  {d["documentNumber"]} {d["amount"]} created {d["createDate"]} {state}");
    }
    return 0;
}
