// kasa examples in C# (HttpClient), the way a POS should talk to kasa (docs/integration.md):
//   dotnet run -- store          reachability, readiness, idempotent store, 507/508
//   dotnet run -- reprint [copy] print the pending original after paper out, or a copy
//   dotnet run -- offline [send] what was issued offline and waits (POST /api/report/offline);
//                                with `send`, one batch sent now (POST /api/document/send/offline)
// KASA_URL (default http://127.0.0.1:13083) and KASA_TOKEN configure it.
// Exit codes as the curl and Python examples: 0 done, 3 not printed, 2 kasa not there, not ready or
// still busy, 1 refused.
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

// 300 BUSY: another request is issuing a document right now; it passes by itself. The examples
// wait for it up to about 10 s (20 x 0.5 s), then give up with exit 2.
const int BusyTries = 20;
var busyPause = TimeSpan.FromMilliseconds(500);

try
{
    return args.FirstOrDefault() switch
    {
        "store" => await Store(),
        "reprint" => await Reprint(args.Skip(1).FirstOrDefault() == "copy"),
        "offline" => await Offline(args.Skip(1).FirstOrDefault() == "send"),
        _ => Usage(),
    };
}
catch (NoAnswer e)
{
    Console.Error.WriteLine($"kasa does not answer at {baseUrl}: {e.Message}");
    return 2;
}

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

// kasa's answer is JSON whatever the HTTP status (a wrong token is 401 with resultCode and error).
// Throws NoAnswer when none arrived: connection refused or cut, timeout, not JSON.
async Task<JsonNode> Send(HttpRequestMessage request)
{
    try
    {
        using var response = await http.SendAsync(request);
        return JsonNode.Parse(await response.Content.ReadAsStringAsync()) ?? throw new NoAnswer("an empty answer");
    }
    catch (HttpRequestException e) { throw new NoAnswer(e.Message); }
    catch (TaskCanceledException) { throw new NoAnswer("no answer in time"); }
    catch (JsonException e) { throw new NoAnswer($"not JSON: {e.Message}"); }
}

async Task<JsonNode> Get(string path)
{
    using var request = new HttpRequestMessage(HttpMethod.Get, path.TrimStart('/'));
    return await Send(request);
}

// A body must say Content-Type: application/json.
async Task<JsonNode> Post(string path, object body, string? idempotencyKey = null)
{
    using var request = new HttpRequestMessage(HttpMethod.Post, path.TrimStart('/'))
    {
        Content = new StringContent(JsonSerializer.Serialize(body), Encoding.UTF8, "application/json"),
    };
    if (idempotencyKey != null) request.Headers.Add("Idempotency-Key", idempotencyKey);
    return await Send(request);
}

// POST, repeated while kasa answers 300 BUSY (it refused the request at once, so repeating does
// nothing twice); the last 300 when kasa stayed busy, for the caller to give up with exit 2.
async Task<JsonNode> PostWaiting(string path, object body, string? idempotencyKey = null)
{
    var answer = await Post(path, body, idempotencyKey);
    for (var i = 0; i < BusyTries && (int?)answer["resultCode"] == 300; i++)
    {
        await Task.Delay(busyPause);
        answer = await Post(path, body, idempotencyKey);
    }
    return answer;
}

int StillBusy(JsonNode answer)
{
    Console.Error.WriteLine($"kasa stays busy: {answer["error"]}; try again later");
    return 2;
}

int Refused(JsonNode answer)
{
    Console.Error.WriteLine($"refused: {answer["resultCode"]} {answer["error"]}");
    return 1;
}

async Task<int> Store()
{
    if (!Reachable()) { Console.Error.WriteLine($"nothing listens at {baseUrl} (is kasa running?)"); return 2; }
    var status = await Get("/api/status/get");
    for (var i = 0; i < BusyTries && (int?)status["reasonCode"] == 300; i++)
    {
        await Task.Delay(busyPause);
        status = await Get("/api/status/get");
    }
    if (status["state"] == null) return Refused(status); // e.g. 401: a missing or wrong KASA_TOKEN
    if ((string?)status["state"] != "READY")
    {
        if ((int?)status["reasonCode"] == 508) { Console.Error.WriteLine("the last document is not printed yet: run reprint first"); return 3; }
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
        try { answer = await PostWaiting("/api/document/store", sale, key); }
        catch (NoAnswer e) { Console.Error.WriteLine($"no answer (attempt {attempt}): {e.Message}"); }
        if (answer == null && attempt < 3) await Task.Delay(TimeSpan.FromSeconds(attempt)); // then the same key again
    }
    // Not a refusal: the sale may be stored. The same key later answers it (or stores it once).
    if (answer == null) { Console.Error.WriteLine($"kasa never answered; repeat later with key {key}"); return 2; }
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
        case 300:
            return StillBusy(answer);
        default:
            return Refused(answer);
    }
}

async Task<int> Reprint(bool copy)
{
    var answer = copy ? await PostWaiting("/api/document/get", new { printer = new { } }) : await PostWaiting("/api/document/print", new { });
    var code = (int)answer["resultCode"]!;
    if (code == 0) { Console.WriteLine("printed"); return 0; }
    if (code == 505) { Console.WriteLine($"nothing waits to be printed ({answer["error"]})"); return 1; }
    if (code == 300) return StillBusy(answer);
    if (code is >= 100 and <= 106) { Console.Error.WriteLine($"the printer still fails: {code} {answer["error"]}"); return 3; }
    return Refused(answer);
}

async Task<int> Offline(bool send)
{
    if (send)
    {
        var sent = await PostWaiting("/api/document/send/offline", new { });
        if ((int)sent["resultCode"]! == 300) return StillBusy(sent);
        if ((int)sent["resultCode"]! != 0) return Refused(sent);
        Console.WriteLine($"sent now: {sent["documents"]!.AsArray().Count} document(s), {sent["locations"]!.AsArray().Count} location(s)");
    }
    var report = await PostWaiting("/api/report/offline", new { });
    if ((int)report["resultCode"]! == 300) return StillBusy(report);
    if ((int)report["resultCode"]! != 0) return Refused(report);
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

// No answer arrived (connection refused or cut, timeout, not JSON): whether kasa did the work is unknown.
sealed class NoAnswer(string message) : Exception(message) { }
